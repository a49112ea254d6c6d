/**
 * The `dependsOn` lists of a plan's actions while they are built: each a list of numbers standing
 * for ids, sorted and deduplicated at the end by the ids' places among every id named once, sorted
 * once. The same lists as a `Set` of ids then `[...set].sort()`, for a fraction of the time where
 * they are long: a project's thousands of VPCs come before each of its thousands of instances, and
 * those ids share long prefixes (a profile of the pure plan of 10,000 documents: 4 million
 * `Set.add`s of strings and 4,000 sorts of 1,000 ids compared character by character took most of
 * its 18 s).
 *
 * Only what is named costs anything: an action without dependencies has no list, and an id no
 * list names is never numbered or sorted (a no-op plan of 100,000 sorted and numbered all 100,000
 * ids, and made a list for each, to give every action an empty `dependsOn`).
 */
export class DepLists {
  /** The ids named so far, each once, in the order first named: a name's number is its place. */
  readonly #named: string[] = [];
  readonly #number = new Map<string, number>();
  readonly #lists = new Map<string, DepList>();
  /** The named ids sorted, once a list is asked for; sorted again once more are named. */
  #sorted: { readonly places: Int32Array; readonly names: readonly string[] } | undefined;

  /** The list of action `id` (made on first use). */
  of(id: string): DepList {
    let list = this.#lists.get(id);
    if (list === undefined) {
      list = new DepList();
      this.#lists.set(id, list);
    }
    return list;
  }

  /** Adds `dep` to the list of `id`. */
  add(id: string, dep: string): void {
    this.of(id).addRank(this.rankOf(dep));
  }

  /** The number standing for `id` in a list, for {@link DepList.addRank}. */
  rankOf(id: string): number {
    let n = this.#number.get(id);
    if (n === undefined) {
      n = this.#named.length;
      this.#named.push(id);
      this.#number.set(id, n);
      this.#sorted = undefined;
    }
    return n;
  }

  /** The list of `id`, sorted as text, each id once (`[]` when nothing was added to it). */
  sorted(id: string): string[] {
    // no list at all (a no-op plan): no lookup, which would flatten and hash each id string
    if (this.#lists.size === 0) return [];
    const list = this.#lists.get(id);
    if (list === undefined || list.ranks.length === 0) return [];
    const { places, names } = this.#sortedNames();
    const sorted = new Int32Array(list.ranks.length);
    for (let i = 0; i < sorted.length; i++) sorted[i] = places[list.ranks[i]!]!;
    sorted.sort();
    const out: string[] = [];
    for (let i = 0; i < sorted.length; i++) {
      if (i === 0 || sorted[i] !== sorted[i - 1]) out.push(names[sorted[i]!]!);
    }
    return out;
  }

  /** The named ids sorted as text, and each number's place among them. */
  #sortedNames(): { readonly places: Int32Array; readonly names: readonly string[] } {
    if (this.#sorted !== undefined) return this.#sorted;
    // the default sort orders strings by code unit, as `<` does, without a call into JS for each
    // comparison (the names are distinct)
    const names = [...this.#named].sort();
    const places = new Int32Array(names.length);
    for (let place = 0; place < names.length; place++) {
      places[this.#number.get(names[place]!)!] = place;
    }
    this.#sorted = { places, names };
    return this.#sorted;
  }
}

/** One action's dependencies: the numbers of the ids it names (repeats allowed). */
export class DepList {
  readonly ranks: number[] = [];

  /** Adds the id numbered `r` (from {@link DepLists.rankOf}). */
  addRank(r: number): void {
    this.ranks.push(r);
  }
}
