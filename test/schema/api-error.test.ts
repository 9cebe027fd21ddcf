// The error body has one owner (schema/api.ts): what `errorBody` builds, `apiErrorOf` reads back, and
// anything that is not an error answer reads as null, so each client falls back to its own words.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { apiErrorOf, apiErrorSchema, errorBody } from '../../schema/api.ts';

describe('the error body', () => {
  it('leaves issues out when there are none, and keeps them when there are', () => {
    expect(errorBody('not_found', 'no such run')).toEqual({ error: { code: 'not_found', message: 'no such run' } });
    expect(errorBody('invalid_input', 'bad', ['a: must be a number'])).toEqual({
      error: { code: 'invalid_input', message: 'bad', issues: ['a: must be a number'] },
    });
  });

  it('reads back what it builds, through JSON, for any code, message and issues', () => {
    const issues = fc.option(fc.array(fc.string()), { nil: undefined });
    fc.assert(
      fc.property(fc.string(), fc.string(), issues, (code, message, list) => {
        const body = JSON.parse(JSON.stringify(errorBody(code, message, list)));
        expect(apiErrorSchema.safeParse(body).success).toBe(true);
        expect(apiErrorOf(body)).toEqual(list ? { code, message, issues: list } : { code, message });
      }),
    );
  });

  it('is null for a body that is not an error answer', () => {
    for (const body of [null, 'Bad Gateway', {}, { error: 'text' }, { error: { code: 1, message: 'x' } }, []]) {
      expect(apiErrorOf(body)).toBeNull();
    }
  });
});
