/**
 * A typed subset of chai's `expect` (chai 6 ships no types and `@types/chai`
 * is not installed). Add chains here when a test needs them.
 */
declare module 'chai' {
  interface Assertion {
    // Language chains: no effect, read as English.
    readonly to: Assertion;
    readonly be: Assertion;
    readonly been: Assertion;
    readonly is: Assertion;
    readonly that: Assertion;
    readonly which: Assertion;
    readonly and: Assertion;
    readonly has: Assertion;
    readonly have: Assertion;
    readonly with: Assertion;
    readonly at: Assertion;
    readonly of: Assertion;
    readonly same: Assertion;
    readonly but: Assertion;
    readonly does: Assertion;
    readonly still: Assertion;

    // Flags.
    readonly not: Assertion;
    readonly deep: Assertion;
    readonly nested: Assertion;
    readonly own: Assertion;
    readonly ordered: Assertion;
    readonly any: Assertion;
    readonly all: Assertion;

    // Properties that assert.
    readonly ok: Assertion;
    readonly true: Assertion;
    readonly false: Assertion;
    readonly null: Assertion;
    readonly undefined: Assertion;
    readonly NaN: Assertion;
    readonly exist: Assertion;
    readonly empty: Assertion;
    readonly finite: Assertion;

    a(type: string, message?: string): Assertion;
    an(type: string, message?: string): Assertion;
    equal(value: unknown, message?: string): Assertion;
    equals(value: unknown, message?: string): Assertion;
    eq(value: unknown, message?: string): Assertion;
    eql(value: unknown, message?: string): Assertion;
    include(value: unknown, message?: string): Assertion;
    includes(value: unknown, message?: string): Assertion;
    contain(value: unknown, message?: string): Assertion;
    contains(value: unknown, message?: string): Assertion;
    members(values: readonly unknown[], message?: string): Assertion;
    oneOf(values: readonly unknown[], message?: string): Assertion;
    keys(...keys: string[]): Assertion;
    property(name: string, value?: unknown, message?: string): Assertion;
    lengthOf(length: number, message?: string): Assertion;
    length(length: number, message?: string): Assertion;
    match(pattern: RegExp, message?: string): Assertion;
    string(text: string, message?: string): Assertion;
    above(value: number, message?: string): Assertion;
    gt(value: number, message?: string): Assertion;
    below(value: number, message?: string): Assertion;
    lt(value: number, message?: string): Assertion;
    least(value: number, message?: string): Assertion;
    gte(value: number, message?: string): Assertion;
    most(value: number, message?: string): Assertion;
    lte(value: number, message?: string): Assertion;
    within(start: number, finish: number, message?: string): Assertion;
    closeTo(expected: number, delta: number, message?: string): Assertion;
    instanceOf(constructor: abstract new (...args: never[]) => unknown, message?: string): Assertion;
    instanceof(constructor: abstract new (...args: never[]) => unknown, message?: string): Assertion;
    throw(expected?: unknown, message?: string | RegExp): Assertion;
    throws(expected?: unknown, message?: string | RegExp): Assertion;
    satisfy(matcher: (value: never) => boolean, message?: string): Assertion;
  }

  export interface ExpectStatic {
    (value: unknown, message?: string): Assertion;
    fail(message?: string): never;
  }

  export const expect: ExpectStatic;
}
