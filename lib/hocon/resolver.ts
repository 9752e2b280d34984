import {
  type ArrNode,
  type ConcatNode,
  type Node,
  NumberLiteral,
  type ObjNode,
  type ProjNode,
  type SubstNode,
  isFinal,
  layersOf,
  mergeAll,
} from './ast';
import { HoconError, type Position } from './errors';
import { DEFAULT_LIMITS, type HoconLimits } from './limits';
import { ResolveBudget } from './resolve-budget';
import {
  Cycle,
  type Missing,
  SubstitutionFallback,
  UNDEF,
  type UnresolvedSubstitution,
  shown,
} from './substitution-fallback';
import { Placeholder, type RMap, type RValue, describeValue } from './values';

export interface ResolveOptions {
  /**
   * Fallback for substitutions whose path is not set in the configuration (a path set to `null`
   * does not fall back). The substitution's path joined with '.' is the variable name, so `${HOME}`
   * reads `HOME`. Nothing is read from `process.env` unless you pass it here.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Leave required substitutions that cannot be resolved as their source text (`${DB_HOST}`),
   * also inside string concatenations (`"jdbc:"${DB_HOST}":5432"` → `jdbc:${DB_HOST}:5432`),
   * instead of throwing. They are listed in `ResolveReport.unresolved`. An unresolved one that
   * must be an object or array (`${base} { x = 1 }`, `${list} [1]`) is still an error.
   */
  readonly allowUnresolved?: boolean;
  /** Bounds for this resolution (over the document's; see `HoconLimits`). */
  readonly limits?: Partial<HoconLimits>;
}

/** A `proj` whose source is not an object: it hides older definitions and has no child. */
const HIDE = Symbol('hidden');
type Out = RValue | typeof UNDEF;

/**
 * The layers of some fields are "cut" while one of their own layers is being resolved: a
 * substitution in `path = ${path}":x"` must see only the definitions before it (the spec's
 * self-reference rule). A context is the set of cuts in force; it is part of memo keys.
 */
class Ctx {
  static readonly EMPTY = new Ctx(new Map(), '');

  private constructor(
    private readonly cuts: ReadonlyMap<Node, number>,
    readonly key: string,
  ) {}

  get size(): number {
    return this.cuts.size;
  }

  limit(slot: Node): number | undefined {
    return this.cuts.get(slot);
  }

  with(slot: Node, keep: number, id: (n: Node) => number): Ctx {
    const current = this.cuts.get(slot);
    if (current !== undefined && current <= keep) return this;
    const cuts = new Map(this.cuts).set(slot, keep);
    const key = [...cuts]
      .map(([n, k]) => `${id(n)}:${k}`)
      .sort()
      .join(',');
    return new Ctx(cuts, key);
  }
}

type Lookup = { found: true; value: RValue } | { found: false; why: Missing };

/**
 * Resolves substitutions lazily: a lookup walks the tree field by field and resolves only what
 * lies on its path, so objects can refer to their own fields (`bar { foo = 1, baz = ${bar.foo} }`).
 * Substitutions and concatenations are memoized per occurrence, as the spec requires, so every
 * reference to a path sees the same value even where the spec leaves the order open.
 */
export class Resolver {
  /** What substitutions without a value in the configuration became; their record. */
  private readonly fallback: SubstitutionFallback;
  /** Bounds recursion, work and the size of what is built (HoconLimits). */
  private readonly budget: ResolveBudget;
  private readonly ids = new WeakMap<Node, number>();
  private nextId = 1;
  private readonly fieldMemo = new Map<string, Out>();
  private readonly layerMemo = new Map<Node, Out>();
  private readonly childMemo = new Map<string, Node | null>();
  private readonly active: Node[] = [];
  private readonly id = (n: Node): number => {
    let id = this.ids.get(n);
    if (id === undefined) this.ids.set(n, (id = this.nextId++));
    return id;
  };

  constructor(
    private readonly root: ObjNode,
    options: ResolveOptions,
    limits: HoconLimits = { ...DEFAULT_LIMITS, ...options.limits },
  ) {
    this.fallback = new SubstitutionFallback(options.env, options.allowUnresolved ?? false);
    this.budget = new ResolveBudget(limits);
  }

  /** The substitutions left unresolved (optional ones left out, or kept as text with `allowUnresolved`). */
  get unresolved(): ReadonlyMap<SubstNode, UnresolvedSubstitution> {
    return this.fallback.unresolved;
  }

  /** The environment variables substitutions fell back on. */
  get envUsed(): ReadonlySet<string> {
    return this.fallback.envUsed;
  }

  resolveRoot(): RMap {
    return this.field(this.root, Ctx.EMPTY) as RMap;
  }

  private layers(slot: Node, ctx: Ctx): readonly Node[] {
    const all = layersOf(slot);
    const keep = ctx.limit(slot);
    return keep === undefined ? all : all.slice(0, keep);
  }

  /** The value of a field: its definitions folded newest first, stopping at one that hides the rest. */
  private field(slot: Node, ctx: Ctx): Out {
    return this.budget.nested(slot.pos, () => this.fieldOnce(slot, ctx));
  }

  private fieldOnce(slot: Node, ctx: Ctx): Out {
    const layers = this.layers(slot, ctx);
    this.budget.spend(1 + ctx.size, slot.pos);
    const memoKey = `${this.id(slot)}|${layers.length}|${ctx.key}`;
    const memo = this.fieldMemo.get(memoKey);
    if (memo !== undefined) return memo;
    const objects: (ObjNode | RMap)[] = []; // newest first
    let result: Out = UNDEF;
    for (let i = layers.length - 1; i >= 0; i--) {
      const layer = layers[i];
      if (layer.t === 'obj') {
        objects.push(layer);
        continue;
      }
      // A plain value under an object is hidden by it and never evaluated (no errors from it).
      if (objects.length > 0 && isFinal(layer)) break;
      let v: Out | typeof HIDE;
      if (layer.t === 'lit') v = layer.value;
      else if (layer.t === 'arr') v = this.array(layer, ctx);
      else if (layer.t === 'proj') v = this.proj(layer, ctx);
      else v = this.value(layer, this.lookingBack(ctx, slot, i));
      if (v === UNDEF) continue; // ${?x} found nothing: the older definitions stay
      if (v === HIDE) break;
      if (v instanceof Map) {
        objects.push(v);
        continue;
      }
      if (objects.length === 0) result = v;
      break;
    }
    if (objects.length > 0) result = this.object(slot, objects, ctx);
    this.fieldMemo.set(memoKey, result);
    return result;
  }

  private object(slot: Node, objects: readonly (ObjNode | RMap)[], ctx: Ctx): RMap {
    const keys = new Set<string>();
    for (let j = objects.length - 1; j >= 0; j--) {
      const o = objects[j];
      this.budget.spend(o instanceof Map ? o.size : o.fields.size, slot.pos);
      for (const key of o instanceof Map ? o.keys() : o.fields.keys()) keys.add(key);
    }
    const out: RMap = new Map();
    for (const key of keys) {
      const child = this.child(slot, key, ctx);
      const v = child ? this.field(child, ctx) : UNDEF;
      if (v !== UNDEF) out.set(key, v);
    }
    return this.budget.measured(out, slot.pos);
  }

  /**
   * The definitions of `slot.key`, gathered from the layers of `slot` without resolving the
   * object layers. Unresolved layers contribute a `proj` (resolved on demand). The result is
   * memoized so that the same field always has the same node identity, which cuts rely on.
   */
  private child(slot: Node, key: string, ctx: Ctx): Node | undefined {
    const layers = this.layers(slot, ctx);
    this.budget.spend(1 + layers.length, slot.pos);
    const memoKey = `${this.id(slot)}|${layers.length}|${key}`;
    const memo = this.childMemo.get(memoKey);
    if (memo !== undefined) return memo ?? undefined;
    const found: Node[] = []; // newest first
    for (let i = layers.length - 1; i >= 0; i--) {
      const layer = layers[i];
      if (layer.t === 'obj') {
        const f = layer.fields.get(key);
        if (f === undefined) continue;
        found.push(f);
        if (isFinal(f)) break;
      } else if (isFinal(layer)) break;
      else found.push({ t: 'proj', source: layer, slot, index: i, key, pos: layer.pos } satisfies ProjNode);
    }
    this.budget.spend(found.length, slot.pos);
    const result = found.length === 0 ? undefined : mergeAll(found.reverse());
    this.childMemo.set(memoKey, result ?? null);
    return result;
  }

  /**
   * The context for resolving definition `i` of `slot`: among several definitions, a substitution
   * or concatenation sees only the ones before it (`path = ${path}":x"`). A lone definition
   * needs no cut: if it refers to itself, that is a cycle (detected as such).
   */
  private lookingBack(ctx: Ctx, slot: Node, i: number): Ctx {
    return layersOf(slot).length > 1 ? ctx.with(slot, i, this.id) : ctx;
  }

  private proj(p: ProjNode, ctx: Ctx): Out | typeof HIDE {
    const src =
      p.source.t === 'proj' ? this.proj(p.source, ctx) : this.value(p.source, this.lookingBack(ctx, p.slot, p.index));
    if (src === UNDEF || src === HIDE) return src;
    if (!(src instanceof Map)) return HIDE;
    return src.has(p.key) ? (src.get(p.key) as RValue) : UNDEF;
  }

  /** Any node as an array element or concatenation part (no self-reference rule applies there). */
  private value(node: Node, ctx: Ctx): Out {
    return this.budget.nested(node.pos, () => this.valueOnce(node, ctx));
  }

  private valueOnce(node: Node, ctx: Ctx): Out {
    this.budget.spend(1, node.pos);
    switch (node.t) {
      case 'lit':
        return node.value;
      case 'arr':
        return this.array(node, ctx);
      case 'obj':
      case 'merge':
        return this.field(node, ctx);
      case 'proj': {
        const v = this.proj(node, ctx);
        return v === HIDE ? UNDEF : v;
      }
      case 'subst':
      case 'concat': {
        const memo = this.layerMemo.get(node);
        if (memo !== undefined) return memo;
        const at = this.active.indexOf(node);
        if (at >= 0) throw new Cycle(this.active.slice(at).filter((n): n is SubstNode => n.t === 'subst'));
        this.active.push(node);
        try {
          const v = node.t === 'subst' ? this.subst(node, ctx) : this.concat(node, ctx);
          this.layerMemo.set(node, v);
          return v;
        } finally {
          this.active.pop();
        }
      }
    }
  }

  private array(node: ArrNode, ctx: Ctx): RValue[] {
    const out: RValue[] = [];
    for (const item of node.items) {
      const v = this.value(item, ctx);
      if (v !== UNDEF) out.push(v);
    }
    return this.budget.measured(out, node.pos);
  }

  private subst(s: SubstNode, ctx: Ctx): Out {
    let r: Lookup;
    try {
      r = this.lookup(s.path, ctx);
      // In an included file, ${x} means "x next to me" first, then "x at the root".
      if (!r.found && s.prefixLength > 0) {
        const again = this.lookup(s.path.slice(s.prefixLength), ctx);
        if (again.found || r.why === 'absent') r = again;
      }
    } catch (e) {
      if (!(e instanceof Cycle)) throw e;
      r = { found: false, why: e };
    }
    const out = r.found ? r.value : this.fallback.valueOf(s, r.why);
    if (s.mustBeObject && out !== UNDEF && !(out instanceof Map)) {
      throw new HoconError(
        s.pos,
        `${shown(s)} is concatenated with an object, so it must be an object, but it is ${describeValue(out)}`,
      );
    }
    return out;
  }

  private lookup(path: readonly string[], ctx: Ctx): Lookup {
    let node: Node = this.root;
    let cut = false; // the path is (partly) hidden because it is being defined right now
    for (const key of path) {
      cut ||= this.isCut(node, ctx);
      const child = this.child(node, key, ctx);
      if (!child) return { found: false, why: cut ? 'self' : 'absent' };
      node = child;
    }
    cut ||= this.isCut(node, ctx);
    const v = this.field(node, ctx);
    return v === UNDEF ? { found: false, why: cut ? 'self' : 'absent' } : { found: true, value: v };
  }

  private isCut(node: Node, ctx: Ctx): boolean {
    const keep = ctx.limit(node);
    return keep !== undefined && keep < layersOf(node).length;
  }

  private concat(node: ConcatNode, ctx: Ctx): Out {
    type Item = { value: RValue; text?: string; from?: string; pos: Node['pos'] };
    const items: (Item | { ws: string })[] = [];
    for (const part of node.parts) {
      if (part.t === 'ws') items.push({ ws: part.text });
      else if (part.t === 'lit') items.push({ value: part.value, text: part.text, pos: part.pos });
      else {
        const v = this.value(part, ctx);
        if (v !== UNDEF) items.push({ value: v, from: part.t === 'subst' ? shown(part) : undefined, pos: part.pos });
      }
    }
    const values = items.filter((i): i is Item => 'value' in i);
    if (values.length === 0) return UNDEF; // only optional substitutions, all missing
    const first = values.find((v) => Array.isArray(v.value) || v.value instanceof Map);
    if (first) {
      // Array or object concatenation: whitespace between the parts does not count.
      const isArray = Array.isArray(first.value);
      const what = (v: Item) =>
        describeValue(v.value) + (v.from && !(v.value instanceof Placeholder) ? ` (from ${v.from})` : '');
      for (const v of values) {
        if (isArray ? !Array.isArray(v.value) : !(v.value instanceof Map)) {
          throw new HoconError(v.pos, `cannot concatenate ${what(first)} with ${what(v)}`);
        }
      }
      if (isArray) {
        this.budget.spend(
          values.reduce((n, v) => n + (v.value as RValue[]).length, 0),
          node.pos,
        );
        return this.budget.measured(
          values.flatMap((v) => v.value as RValue[]),
          node.pos,
        );
      }
      return values.map((v) => v.value as RMap).reduce((older, newer) => this.mergeMaps(older, newer, node.pos));
    }
    const texts = items.map((i) => ('ws' in i ? i.ws : (i.text ?? asText(i.value))));
    const length = texts.reduce((n, t) => n + t.length, 0);
    this.budget.text(length, node.pos);
    return texts.join('');
  }

  private mergeMaps(older: RMap, newer: RMap, pos: Position): RMap {
    this.budget.spend(older.size + newer.size, pos);
    const out = new Map(older);
    for (const [key, value] of newer) {
      const existing = out.get(key);
      out.set(key, existing instanceof Map && value instanceof Map ? this.mergeMaps(existing, value, pos) : value);
    }
    return this.budget.measured(out, pos);
  }
}

/** A substituted simple value inside a string: numbers as written, null as nothing. */
function asText(v: RValue): string {
  if (v === null) return '';
  if (v instanceof NumberLiteral || v instanceof Placeholder) return v.text;
  if (typeof v === 'string' || typeof v === 'boolean') return String(v);
  // Arrays and objects took the concatenation branch above: a string concatenation never holds one.
  throw new Error(`internal error: ${describeValue(v)} in a string concatenation`);
}
