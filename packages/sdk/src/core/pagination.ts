import type { Page } from '@aide/schemas';

export type { Page };

/**
 * How a keyset-paged route is walked (ADR 0024): its first page, asked so that the answer carries
 * `next_cursor` (the request names `total`), and the page after a `next_cursor`.
 */
export interface KeysetPages<T> {
  first(page: number): Promise<Page<T>>;
  after(cursor: string): Promise<Page<T>>;
}

/**
 * The result of `list()`: await it for one page (the `{items, total, page, size, pages}` envelope), or
 * iterate it with `for await` to get every item of this page and all the following ones.
 *
 * ```ts
 * const first = await client.systems.list({ size: 20 });          // one page
 * for await (const system of client.systems.list({ size: 100 })) { // every system
 *   console.log(system.code);
 * }
 * ```
 *
 * Nothing is requested until it is awaited or iterated. Awaited, it is one request for the page asked
 * for, as ever. Iterated, a collection list is walked by keyset cursor (`next_cursor`): any number of
 * pages (offset pages stop at 10,000 rows skipped), each costing the same, and no row is skipped or
 * repeated when rows are created or deleted meanwhile. The envelopes `pages()` yields are numbered on
 * from the first (`page`), with the total of each request. Routes without a cursor are walked by
 * offset, where rows created or deleted while iterating may shift between pages.
 */
export class PagePromise<T> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  readonly #fetchPage: (page: number) => Promise<Page<T>>;
  readonly #startPage: number;
  readonly #keyset: KeysetPages<T> | undefined;
  #first: Promise<Page<T>> | undefined;

  /**
   * `fetchPage` reads a page by number; `keyset`, when the route pages by cursor, is how `pages()` and
   * `for await` walk it instead.
   */
  constructor(fetchPage: (page: number) => Promise<Page<T>>, startPage: number, keyset?: KeysetPages<T>) {
    this.#fetchPage = fetchPage;
    this.#startPage = startPage;
    this.#keyset = keyset;
  }

  #firstPage(): Promise<Page<T>> {
    this.#first ??= this.#fetchPage(this.#startPage);
    return this.#first;
  }

  then<TResult1 = Page<T>, TResult2 = never>(
    onfulfilled?: ((value: Page<T>) => TResult1 | PromiseLike<TResult1>) | null,
    onrejected?: ((reason: unknown) => TResult2 | PromiseLike<TResult2>) | null,
  ): Promise<TResult1 | TResult2> {
    return this.#firstPage().then(onfulfilled, onrejected);
  }

  catch<TResult = never>(
    onrejected?: ((reason: unknown) => TResult | PromiseLike<TResult>) | null,
  ): Promise<Page<T> | TResult> {
    return this.#firstPage().catch(onrejected);
  }

  finally(onfinally?: (() => void) | null): Promise<Page<T>> {
    return this.#firstPage().finally(onfinally);
  }

  /**
   * Every page from the first requested one to the last: by `next_cursor` when the answers carry one,
   * by page number otherwise.
   */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    const keyset = this.#keyset;
    let page = await (keyset ? keyset.first(this.#startPage) : this.#firstPage());
    for (;;) {
      yield page;
      if (page.items.length === 0) return;
      const cursor = page.next_cursor;
      if (keyset && cursor !== undefined) {
        if (cursor === null) return;
        // A cursor page is page 1 of what follows the cursor: numbered on from this one.
        page = { ...(await keyset.after(cursor)), page: page.page + 1 };
      } else {
        if (page.page >= page.pages) return;
        page = await this.#fetchPage(page.page + 1);
      }
    }
  }
  /** Every item of every page, in order. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.items;
  }

  get [Symbol.toStringTag](): string {
    return 'PagePromise';
  }
}
