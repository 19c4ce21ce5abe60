/** A hook that runs an async load when its inputs change and drops answers for inputs that are gone. */
import { useEffect, useRef, useState } from 'preact/hooks';

export type AsyncState<T> = { state: 'loading' } | { state: 'done'; value: T } | { state: 'failed'; message: string };

/**
 * Runs `load` on mount and whenever `inputs` change; the signal aborts when
 * they change again or the component unmounts, and a late answer is ignored.
 *
 * A change of `reloadKey` alone loads again without going back to `loading`:
 * the last answer stays until the new one replaces it (for data that grows
 * while it is shown). A failed reload keeps the last answer too.
 */
export function useAsync<T>(
  load: (signal: AbortSignal) => Promise<T>,
  inputs: readonly unknown[],
  reloadKey: unknown = null,
): AsyncState<T> {
  const [result, setResult] = useState<AsyncState<T>>({ state: 'loading' });
  const lastInputs = useRef<readonly unknown[] | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    const previous = lastInputs.current;
    const isReload =
      previous !== null &&
      previous.length === inputs.length &&
      previous.every((value, i) => Object.is(value, inputs[i]));
    lastInputs.current = inputs;
    if (!isReload) setResult({ state: 'loading' });
    load(controller.signal).then(
      (value) => {
        if (!controller.signal.aborted) setResult({ state: 'done', value });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const message = error instanceof Error ? error.message : String(error);
        setResult((current) => (isReload && current.state === 'done' ? current : { state: 'failed', message }));
      },
    );
    return () => controller.abort();
    // `inputs` lists what `load` depends on: `load` itself is a new closure on every render.
  }, [...inputs, reloadKey]);
  return result;
}
