/** A hook that runs an async load when its inputs change and drops answers for inputs that are gone. */
import { useEffect, useState } from 'preact/hooks';

export type AsyncState<T> = { state: 'loading' } | { state: 'done'; value: T } | { state: 'failed'; message: string };

/**
 * Runs `load` on mount and whenever `inputs` change; the signal aborts when
 * they change again or the component unmounts, and a late answer is ignored.
 */
export function useAsync<T>(load: (signal: AbortSignal) => Promise<T>, inputs: readonly unknown[]): AsyncState<T> {
  const [result, setResult] = useState<AsyncState<T>>({ state: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    setResult({ state: 'loading' });
    load(controller.signal).then(
      (value) => {
        if (!controller.signal.aborted) setResult({ state: 'done', value });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setResult({ state: 'failed', message: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => controller.abort();
    // `inputs` lists what `load` depends on: `load` itself is a new closure on every render.
  }, inputs);
  return result;
}
