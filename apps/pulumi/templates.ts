// Team templates a stack can name in `seatunnel:template`. A platform team lists its own here.

import type { TeamTemplate } from '../../lib/model/template';
import { dataTeam, platform } from '../examples/team/template';

export const TEAM_TEMPLATES: Readonly<Record<string, TeamTemplate>> = { platform, dataTeam };
