// What the Pods run: the SeaTunnel image (with its pull policy and pull Secrets, and where
// SeaTunnel lives inside it) and how the runtime reaches the master container.

import { absolutePathProblem, dns1123SubdomainProblem, imageReferenceProblem } from '../k8s-syntax';
import type { ApplicationSpec } from '../spec';
import type { PropReader } from './reader';

export type Images = Pick<
  ApplicationSpec,
  'image' | 'imagePullPolicy' | 'imagePullSecrets' | 'seatunnelHome' | 'classDataSharing' | 'runtime'
>;

export function resolveImages(r: PropReader): Images {
  let image = '';
  if (r.props.image === undefined)
    r.fail('image', undefined, "is required: the image with the SeaTunnel distribution and the job's connectors");
  else image = r.str('image', imageReferenceProblem);
  return {
    image,
    imagePullPolicy: r.choice('imagePullPolicy'),
    imagePullSecrets: pullSecrets(r),
    seatunnelHome: r.str('seatunnelHome', absolutePathProblem),
    classDataSharing: r.choice('classDataSharing'),
    runtime: {
      mode: r.choice('runtimeMode'),
      image: r.str('runtimeImage', imageReferenceProblem),
      imagePullPolicy: r.choice('runtimeImagePullPolicy'),
    },
  };
}

/** Secret names, duplicates dropped (a list merged from a team template may repeat one). */
function pullSecrets(r: PropReader): string[] {
  const list = r.props.imagePullSecrets as unknown;
  const out: string[] = [];
  if (list === undefined) return out;
  if (!Array.isArray(list)) {
    r.fail('imagePullSecrets', list, 'must be a list of Secret names');
    return out;
  }
  list.forEach((s: unknown, i) => {
    if (typeof s !== 'string' || s.trim() === '')
      r.fail('imagePullSecrets', s, 'entries must be non-empty Secret names', `[${i}]`);
    else if (r.check('imagePullSecrets', s, dns1123SubdomainProblem(s), `[${i}]`) && !out.includes(s)) out.push(s);
  });
  return out;
}
