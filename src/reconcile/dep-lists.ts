/**
 * The `dependsOn` lists of a plan's actions while they are built: each a list of the ids' places
 * among all the actions' ids sorted once, sorted and deduplicated at the end. The same lists as a
 * `Set` of ids then `[...set].sort()`, for a fraction of the time where they are long: a project's
 * thousands of VPCs come before each of its thousands of instances, and those ids share long
 * prefixes (a profile of the pure plan of 10,000 documents: 4 million `Set.add`s of strings and
 * 4,000 sorts of 1,000 ids compared character by character took most of its 18 s).
 */
export class DepLists {
  readonly #ids: readonly string[];
  readonly #rank: ReadonlyMap<string, number>;
  readonly #lists = new Map<string, DepList>();

  /** `ids`: every action's id; a list may also name others (kept and sorted as text). */
  constructor(ids: readonly string[]) {
    this.#ids = [...new Set(ids)].sort();
    this.#rank = new Map(this.#ids.map((id, i) => [id, i]));
    for (const id of ids) this.#lists.set(id, new DepList());
  }

  /** The list of action `id` (one of the ids given). */
  of(id: string): DepList {
    return this.#lists.get(id)!;
  }

  /** Adds `dep` to the list of `id`. */
  add(id: string, dep: string): void {
    this.of(id).add(dep, this.#rank);
  }

  /** The place of `id` among the ids given, for {@link DepList.addRank}. */
  rankOf(id: string): number {
    return this.#rank.get(id)!;
  }

  /** The list of `id`, sorted as text, each id once. */
  sorted(id: string): string[] {
    const list = this.of(id);
    const ranks = Int32Array.from(list.ranks).sort();
    const out: string[] = [];
    for (let i = 0; i < ranks.length; i++) {
      if (i === 0 || ranks[i] !== ranks[i - 1]) out.push(this.#ids[ranks[i]!]!);
    }
    if (list.others === undefined) return out;
    return [...new Set([...out, ...list.others])].sort();
  }
}

/** One action's dependencies: places of known ids (repeats allowed), and ids of no action. */
export class DepList {
  readonly ranks: number[] = [];
  others: Set<string> | undefined;

  add(dep: string, rank: ReadonlyMap<string, number>): void {
    const r = rank.get(dep);
    if (r !== undefined) this.ranks.push(r);
    else {
      this.others ??= new Set();
      this.others.add(dep);
    }
  }

  /** Adds the id at place `r` (from {@link DepLists.rankOf}). */
  addRank(r: number): void {
    this.ranks.push(r);
  }
}
