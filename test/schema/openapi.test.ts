// The OpenAPI document the worker serves is a valid OpenAPI 3.1 document (checked by a real
// validator), and each operation's schemas are the ones the routes validate with.
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../worker/openapi.ts';

describe('OpenAPI document', () => {
  it('is valid OpenAPI 3.1', async () => {
    const validator = new Validator();
    // A copy: the validator dereferences what it is given in place.
    const result = await validator.validate(structuredClone(openApiDocument()));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    // Every $ref resolves: the validator can dereference the whole document.
    expect(() => validator.resolveRefs()).not.toThrow();
  });

  it('resolves every $ref to a schema it holds', () => {
    const doc = openApiDocument() as { components: { schemas: Record<string, unknown> } };
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of new Set(refs)) expect(doc.components.schemas, ref).toHaveProperty([ref]);
  });
});
