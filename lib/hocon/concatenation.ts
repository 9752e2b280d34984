// Value concatenation as the parser sees it (`a b`, `${x} { y = 1 }`, `[1] [2]`): literals, and
// concatenations decided while parsing where no substitution keeps them open (resolver.ts
// finishes those).

import { type ArrNode, type LitNode, type Node, type ObjNode, type WsPart, mergeNodes, mergeObjects } from './ast';
import { HoconError, type Position } from './errors';

export function lit(value: LitNode['value'], text: string, pos: Position): LitNode {
  return { t: 'lit', value, text, pos };
}

/** An unquoted true/false/null is a keyword only when it is the whole value (`true foo` is a string). */
export function keyword(node: LitNode): LitNode {
  if (node.text === 'true') return lit(true, node.text, node.pos);
  if (node.text === 'false') return lit(false, node.text, node.pos);
  if (node.text === 'null') return lit(null, node.text, node.pos);
  return node;
}

/**
 * Value concatenation, decided as far as possible while parsing: strings join (keeping inner
 * whitespace), arrays append, objects merge. Substitutions keep the concatenation open until
 * resolution; object concatenations then become a merge of their parts, so a lookup into
 * `${base} { x = 1 }` can see `x` without resolving the whole value.
 */
export function concatenate(parts: (Node | WsPart)[]): Node {
  const values = parts.filter((p): p is Node => p.t !== 'ws');
  const pos = values[0].pos;
  const hasSubst = values.some((v) => v.t === 'subst');
  const container = values.find((v) => v.t === 'obj' || v.t === 'arr');
  if (container) {
    for (const v of values) {
      if (v.t !== container.t && v.t !== 'subst') {
        throw new HoconError(v.pos, `cannot concatenate ${kindName(container)} with ${kindName(v)}`);
      }
    }
  }
  if (container?.t === 'obj') {
    if (!hasSubst) return (values as ObjNode[]).reduce(mergeObjects);
    const layers = values.map((v) => (v.t === 'subst' ? { ...v, mustBeObject: true } : v));
    return layers.slice(1).reduce(mergeNodes, layers[0]);
  }
  if (container?.t === 'arr' && !hasSubst) {
    return { t: 'arr', items: (values as ArrNode[]).flatMap((a) => a.items), pos };
  }
  if (!hasSubst) {
    const text = parts.map((p) => (p.t === 'ws' ? p.text : (p as LitNode).text)).join('');
    return lit(text, text, pos);
  }
  return { t: 'concat', parts, pos };
}

function kindName(node: Node): string {
  if (node.t === 'obj') return 'an object';
  if (node.t === 'arr') return 'an array';
  if (node.t !== 'lit') return 'a substitution';
  return node.pos.included ? 'a simple value' : `a simple value ('${node.text}')`;
}
