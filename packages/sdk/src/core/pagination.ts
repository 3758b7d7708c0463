import type { Page } from '@aide/schemas';

export type { Page };

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
 * Nothing is requested until it is awaited or iterated. Pages are offset-based: rows inserted or
 * deleted while iterating may shift items between pages; sort on a stable key (the default sorts do).
 */
export class PagePromise<T> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  readonly #fetchPage: (page: number) => Promise<Page<T>>;
  readonly #startPage: number;
  #first: Promise<Page<T>> | undefined;

  constructor(fetchPage: (page: number) => Promise<Page<T>>, startPage: number) {
    this.#fetchPage = fetchPage;
    this.#startPage = startPage;
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

  /** Every page from the first requested one to the last. */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    let page = await this.#firstPage();
    for (;;) {
      yield page;
      if (page.items.length === 0 || page.page >= page.pages) return;
      page = await this.#fetchPage(page.page + 1);
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
