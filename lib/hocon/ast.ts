import type { Position } from './errors';

/**
 * The unresolved tree the parser builds. Duplicate keys are merged while parsing where that
 * can be decided without resolving anything (object + object, anything followed by a plain
 * value); otherwise the definitions of a field are kept in order as a `merge` node, because
 * self-referential substitutions (`a = ${a} [1]`) must be able to "look back" at the earlier
 * definitions. Nodes are never mutated after construction, so documents can share them.
 */
export type Node = LitNode | ObjNode | ArrNode | SubstNode | ConcatNode | MergeNode | ProjNode;

/** A number as written in the source, so concatenation and JSON output can reuse the exact text. */
export class NumberLiteral {
  constructor(
    readonly text: string,
    readonly value: number | bigint,
  ) {}

  /** `text` must be a JSON number. Integers outside the safe range become bigint, exactly. */
  static parse(text: string): NumberLiteral {
    if (/[.eE]/.test(text)) return new NumberLiteral(text, Number(text));
    const n = Number(text);
    return new NumberLiteral(text, Number.isSafeInteger(n) ? n : BigInt(text));
  }
}

export interface LitNode {
  readonly t: 'lit';
  readonly value: string | boolean | null | NumberLiteral;
  /** The value as written; used when it takes part in a string concatenation. */
  readonly text: string;
  readonly pos: Position;
}

export interface ObjNode {
  readonly t: 'obj';
  readonly fields: ReadonlyMap<string, Node>;
  readonly pos: Position;
}

export interface ArrNode {
  readonly t: 'arr';
  readonly items: readonly Node[];
  readonly pos: Position;
}

export interface SubstNode {
  readonly t: 'subst';
  /** Absolute path: an included file's substitutions are prefixed with the include point. */
  readonly path: readonly string[];
  /** How many leading segments of `path` come from the include point (looked up with and without). */
  readonly prefixLength: number;
  readonly optional: boolean;
  /** Source text, e.g. `${?DB_HOST}`. */
  readonly text: string;
  /** Part of an object concatenation (`${base} { x = 1 }`), so it must resolve to an object. */
  readonly mustBeObject: boolean;
  readonly pos: Position;
}

/** Whitespace between concatenated values: kept between strings, ignored between arrays/objects. */
export interface WsPart {
  readonly t: 'ws';
  readonly text: string;
}

/** A string or array concatenation involving substitutions (object concatenations become `merge`). */
export interface ConcatNode {
  readonly t: 'concat';
  readonly parts: readonly (Node | WsPart)[];
  readonly pos: Position;
}

/** Successive definitions of one field, oldest first. Never nested, never fewer than two layers. */
export interface MergeNode {
  readonly t: 'merge';
  readonly layers: readonly Node[];
  readonly pos: Position;
}

/**
 * Resolver-internal: field `key` of whatever the unresolved layer `source` (layer `index` of
 * `slot`) turns out to be. Lets a lookup reach into `${base} { ... }` without resolving the
 * object being defined.
 */
export interface ProjNode {
  readonly t: 'proj';
  readonly source: Node;
  readonly slot: Node;
  readonly index: number;
  readonly key: string;
  readonly pos: Position;
}

export function layersOf(node: Node): readonly Node[] {
  return node.t === 'merge' ? node.layers : [node];
}

/** A value that hides everything defined before it (it can never merge with an object). */
export function isFinal(node: Node): boolean {
  return node.t === 'lit' || node.t === 'arr';
}

/** The node for "`older`, then redefined as `newer`" (duplicate keys, includes, overrides). */
export function mergeNodes(older: Node, newer: Node): Node {
  return mergeAll([older, newer]);
}

/** `mergeNodes` over successive definitions, oldest first, in one pass. */
export function mergeAll(definitions: readonly Node[]): Node {
  const layers: Node[] = [];
  for (const node of definitions) for (const layer of layersOf(node)) pushLayer(layers, layer);
  return layers.length === 1 ? layers[0] : { t: 'merge', layers, pos: definitions[definitions.length - 1].pos };
}

function pushLayer(layers: Node[], layer: Node): void {
  const last = layers[layers.length - 1];
  if (isFinal(layer)) layers.length = 0;
  if (layer.t === 'obj' && last?.t === 'obj') layers[layers.length - 1] = mergeObjects(last, layer);
  else layers.push(layer);
}

export function mergeObjects(older: ObjNode, newer: ObjNode): ObjNode {
  const fields = new Map(older.fields);
  for (const [key, value] of newer.fields) {
    const existing = fields.get(key);
    fields.set(key, existing === undefined ? value : mergeNodes(existing, value));
  }
  return { t: 'obj', fields, pos: older.pos };
}

/** `a.b.c = value` is `a { b { c = value } }`: wraps `value` in objects for all but the first segment. */
export function nest(segments: readonly string[], value: Node, pos: Position): Node {
  let node = value;
  for (let k = segments.length - 1; k >= 1; k--) node = { t: 'obj', fields: new Map([[segments[k], node]]), pos };
  return node;
}
