/**
 * ES2024's `String.prototype.isWellFormed` (Node ≥ 20). TypeScript's `lib` stops at ES2023 here:
 * ES2024's would also type `Promise.withResolvers` and `Object.groupBy`, which Node 20 lacks.
 */
const nativeIsWellFormed = (String.prototype as unknown as { isWellFormed: (this: string) => boolean }).isWellFormed;

/**
 * Whether a string is well-formed Unicode: no lone UTF-16 surrogate. Such a string has no UTF-8
 * form, so DynamoDB refuses it as a map key and stores it mangled as a value, and strict JSON
 * readers refuse the `\ud800` escape a reply would carry.
 */
export const isWellFormed = (value: string): boolean => nativeIsWellFormed.call(value);

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The string with each lone surrogate written out as the text `\udXXX`, so a message can name it and stay well-formed. */
export const showLoneSurrogates = (value: string): string => value.replace(LONE_SURROGATE, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);

export const ILL_FORMED_VALUE = 'is not well-formed Unicode (it holds a lone UTF-16 surrogate)';
export const ILL_FORMED_NAME = 'is a property name that is not well-formed Unicode (it holds a lone UTF-16 surrogate)';
