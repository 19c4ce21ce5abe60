/**
 * The mocha globals @web/test-runner provides (BDD interface), typed minimally
 * because `@types/mocha` is not installed.
 */

type MochaDone = (error?: unknown) => void;
type MochaHook = (this: MochaContext) => void | Promise<unknown>;
type MochaTest = ((this: MochaContext) => void | Promise<unknown>) | ((this: MochaContext, done: MochaDone) => void);

interface MochaContext {
  /** Sets this test's (or suite's) timeout, in ms. */
  timeout(ms: number): void;
  slow(ms: number): void;
  skip(): never;
  retries(count: number): void;
}

interface MochaSuiteFunction {
  (title: string, fn: (this: MochaContext) => void): void;
  only(title: string, fn: (this: MochaContext) => void): void;
  skip(title: string, fn: (this: MochaContext) => void): void;
}

interface MochaTestFunction {
  (title: string, fn?: MochaTest): void;
  only(title: string, fn?: MochaTest): void;
  skip(title: string, fn?: MochaTest): void;
}

declare const describe: MochaSuiteFunction;
declare const context: MochaSuiteFunction;
declare const it: MochaTestFunction;
declare function before(fn: MochaHook): void;
declare function after(fn: MochaHook): void;
declare function beforeEach(fn: MochaHook): void;
declare function afterEach(fn: MochaHook): void;
