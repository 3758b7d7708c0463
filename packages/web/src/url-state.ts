import { useEffect, useState } from 'react';

const read = (name: string) => new URLSearchParams(window.location.search).get(name);

/**
 * A piece of a list's state (filter, sort, page) kept in the URL's query string: a reload, a shared
 * link or Back shows the same list. Changes replace the history entry (typing a filter is not a trail
 * of pages to go back through); a value equal to `fallback` leaves the URL.
 */
export function useUrlParam(name: string, fallback: string): [string, (value: string) => void] {
  const [value, setValue] = useState(() => read(name) ?? fallback);
  useEffect(() => {
    const onPop = () => setValue(read(name) ?? fallback);
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [name, fallback]);
  const set = (next: string) => {
    const params = new URLSearchParams(window.location.search);
    if (next === fallback) params.delete(name);
    else params.set(name, next);
    const query = params.toString();
    window.history.replaceState(
      window.history.state,
      '',
      `${window.location.pathname}${query ? `?${query}` : ''}`,
    );
    setValue(next);
  };
  return [value, set];
}

/** A page number in the URL (`page`, 1 when absent or not a positive integer). */
export function useUrlPage(name = 'page'): [number, (page: number) => void] {
  const [text, setText] = useUrlParam(name, '1');
  const page = /^[1-9]\d{0,6}$/.test(text) ? Number(text) : 1;
  return [page, (p) => setText(String(p))];
}
