import { describe, expect, it } from 'vitest';
import { actions } from './actions';
import { actionAliases } from './actions/aliases';
import { buildOpenApiDocument } from './openapi';

type Operation = {
  'x-codeSamples': { lang: string; source: string }[];
  parameters?: { name: string; example?: unknown }[];
  requestBody?: { content: { 'application/json': { example: unknown } } };
};

describe('the OpenAPI document', () => {
  const doc = buildOpenApiDocument('https://bots.example.com');

  it('documents every action with a curl example request, for GET and POST, whose parameters validate', () => {
    expect(Object.keys(doc.paths)).toHaveLength(actions.length + actionAliases.length);
    for (const action of actions) {
      // The example is a request the action accepts: the reference never shows a broken call.
      expect(action.input.safeParse(action.example).success, action.name).toBe(true);
      const path = doc.paths[`/api/{api_key}/${action.name}`] as Record<'get' | 'post', Operation>;
      const [getSample] = path.get['x-codeSamples'];
      const [postSample] = path.post['x-codeSamples'];
      expect(getSample.source).toContain(`https://bots.example.com/api/YOUR_API_KEY/${action.name}`);
      expect(postSample.source).toContain(`-d '${JSON.stringify(action.example)}'`);
      expect(path.post.requestBody?.content['application/json'].example).toEqual(action.example);
      const query = new URL(getSample.source.slice("curl '".length, -1)).searchParams;
      const fromQuery = Object.fromEntries(query);
      expect(action.input.safeParse(fromQuery).success, `${action.name} as a query string`).toBe(true);
      for (const parameter of path.get.parameters ?? []) {
        if (parameter.name in fromQuery) expect(parameter.example).toBe(fromQuery[parameter.name]);
      }
    }
  });
});
