import { useEffect, useRef, useState } from 'react';

export type Async<T> = { state: 'loading' } | { state: 'error'; error: Error } | { state: 'done'; value: T };

/**
 * Runs `load` when `deps` change; a stale answer (deps changed meanwhile) is dropped. The returned
 * `reload` runs it again keeping the current value shown until the new one arrives, so what the page
 * holds open (a form over a list) stays open while its list is refreshed.
 */
export function useAsync<T>(load: () => Promise<T>, deps: readonly unknown[]): [Async<T>, () => void] {
  const [result, setResult] = useState<Async<T>>({ state: 'loading' });
  const [tick, setTick] = useState(0);
  const reloading = useRef(false);
  useEffect(() => {
    let live = true;
    if (!reloading.current) setResult({ state: 'loading' });
    reloading.current = false;
    load().then(
      (value) => live && setResult({ state: 'done', value }),
      (error: unknown) =>
        live &&
        setResult({ state: 'error', error: error instanceof Error ? error : new Error(String(error)) }),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  return [
    result,
    () => {
      reloading.current = true;
      setTick((t) => t + 1);
    },
  ];
}
