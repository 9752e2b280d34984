// Whether the image's engine home has every connector the job names, known before anything starts.
// Zeta 2.3.8 finds a source's or sink's jar in two steps: `connectors/plugin-mapping.properties`
// maps `seatunnel.<kind>.<PluginName>` to a jar prefix (`connector-jdbc`), and the jar is the file in
// `connectors/` whose name starts with it (both compared ignoring case). Either missing, and the
// submission answers HTTP 500 "Plugin … not found" — after the master and every worker were
// started for nothing. Transforms are not in the mapping (they come with the engine's own jars).

import { errorMessage } from '../util';

export interface ConnectorNeed {
  readonly kind: 'source' | 'sink';
  readonly plugin: string;
}

/** The sources and sinks a job (Zeta's REST body: lists of plugin configs) names. */
export function connectorNeeds(jobJson: string): ConnectorNeed[] {
  const job = JSON.parse(jobJson) as Record<string, unknown>;
  const out: ConnectorNeed[] = [];
  for (const kind of ['source', 'sink'] as const) {
    const list = job[kind];
    if (!Array.isArray(list)) continue;
    for (const p of list) {
      const name = (p as { plugin_name?: unknown } | null)?.plugin_name;
      if (typeof name === 'string' && !out.some((n) => n.kind === kind && n.plugin === name))
        out.push({ kind, plugin: name });
    }
  }
  return out;
}

/** `seatunnel.<kind>.<name>` (lower-cased) → jar prefix, from plugin-mapping.properties' text. */
export function parsePluginMapping(text: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
    const m = /^([^=:\s]+)\s*[=:]\s*(.*)$/.exec(line);
    if (m) map.set(m[1].toLowerCase(), m[2].trim());
  }
  return map;
}

export interface ConnectorHome {
  /** The text of connectors/plugin-mapping.properties. */
  readonly mapping: string;
  /** The file names in connectors/. */
  readonly jars: readonly string[];
}

/**
 * What the job needs and the home lacks, one line each (plugin names and jar prefixes only: they
 * come from the job's structure, never from a value).
 */
export function missingConnectors(needs: readonly ConnectorNeed[], home: ConnectorHome): string[] {
  const mapping = parsePluginMapping(home.mapping);
  const jars = home.jars.map((j) => j.toLowerCase()).filter((j) => j.endsWith('.jar'));
  const problems: string[] = [];
  for (const { kind, plugin } of needs) {
    const key = `seatunnel.${kind}.${plugin}`;
    const prefix = mapping.get(key.toLowerCase());
    if (prefix === undefined) {
      problems.push(`${kind} ${plugin}: no line '${key} = <jar prefix>' in connectors/plugin-mapping.properties`);
    } else if (!jars.some((j) => j.startsWith(prefix.toLowerCase()))) {
      problems.push(
        `${kind} ${plugin}: connectors/ has no ${prefix}-<version>.jar (plugin-mapping.properties maps it there)`,
      );
    }
  }
  return problems;
}

/** The connector home of `seatunnelHome`, or why it cannot be read (then nothing is checked). */
export function readConnectorHome(
  seatunnelHome: string,
  io: { readFile(file: string): string; listDir(dir: string): string[] },
): ConnectorHome | { unreadable: string } {
  try {
    return {
      mapping: io.readFile(`${seatunnelHome}/connectors/plugin-mapping.properties`),
      jars: io.listDir(`${seatunnelHome}/connectors`),
    };
  } catch (e) {
    return { unreadable: errorMessage(e) };
  }
}
