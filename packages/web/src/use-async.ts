import { useEffect, useState } from 'react';

export type Async<T> = { state: 'loading' } | { state: 'error'; error: Error } | { state: 'done'; value: T };

/** Runs `load` when `deps` change; a stale answer (deps changed meanwhile) is dropped. */
export function useAsync<T>(load: () => Promise<T>, deps: readonly unknown[]): [Async<T>, () => void] {
  const [result, setResult] = useState<Async<T>>({ state: 'loading' });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setResult({ state: 'loading' });
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
  return [result, () => setTick((t) => t + 1)];
}
