// The OpenAPI paths of access: role tokens (admin), a run's share links (operator), and who am I.
import {
  accessInfoSchema,
  createdShareSchema,
  createdTokenSchema,
  createShareBodySchema,
  createTokenBodySchema,
  shareListSchema,
  tokenInfoSchema,
  tokenListSchema,
} from '../schema/access.ts';
import type { Json } from './openapi-parts.ts';
import { common, component, error, json, runId } from './openapi-parts.ts';

const body = (name: string, schema: Parameters<typeof component>[1]) => ({
  required: false,
  content: { 'application/json': { schema: component(name, schema, 'input') } },
});
const param = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });
const d1 = { '503': error('D1 did not answer (a token is never let in unchecked)') };

/** /api/tokens, /api/runs/{id}/shares and /api/access. */
export function accessPaths(): Json {
  const info = component('TokenInfo', tokenInfoSchema);
  return {
    '/api/access': {
      get: {
        summary: 'Who the caller is: role, and for a share link its run and expiry (any valid access)',
        responses: { '200': json(component('AccessInfo', accessInfoSchema), 'The caller'), ...common },
      },
    },
    '/api/tokens': {
      post: {
        summary: 'Make a token with a role (admin); its text is in this answer only',
        requestBody: { ...body('CreateToken', createTokenBodySchema), required: true },
        responses: {
          '201': json(component('CreatedToken', createdTokenSchema), 'The token, shown once'),
          '400': error('Bad body'),
          ...d1,
          ...common,
        },
      },
      get: {
        summary: 'Role tokens, without their text (admin)',
        responses: { '200': json(component('TokenList', tokenListSchema), 'The tokens'), ...d1, ...common },
      },
    },
    '/api/tokens/{tokenId}': {
      delete: {
        summary: 'Revoke a role token (admin); its next request is a 401',
        parameters: [param('tokenId')],
        responses: { '200': json(info, 'The revoked token'), '404': error('No such token'), ...d1, ...common },
      },
    },
    '/api/runs/{id}/shares': {
      post: {
        summary: "Make a read-only share link to the run (operator); the token rides in the url's fragment",
        parameters: [runId],
        requestBody: body('CreateShare', createShareBodySchema),
        responses: {
          '201': json(component('CreatedShare', createdShareSchema), 'The link and its token, shown once'),
          '400': error('Bad body'),
          '404': error('No such run'),
          ...d1,
          ...common,
        },
      },
      get: {
        summary: "The run's share links, without their tokens (operator)",
        parameters: [runId],
        responses: {
          '200': json(component('ShareList', shareListSchema), 'The links'),
          '404': error('No such run'),
          ...d1,
          ...common,
        },
      },
    },
    '/api/runs/{id}/shares/{shareId}': {
      delete: {
        summary: 'Revoke a share link (operator); its next request is a 401',
        parameters: [runId, param('shareId')],
        responses: {
          '200': json(info, 'The revoked link'),
          '404': error('No such run or link'),
          ...d1,
          ...common,
        },
      },
    },
  };
}
