import { expect, test } from '@playwright/test';

const isLocal = (url: string) => {
  const { protocol, hostname } = new URL(url);
  return ['data:', 'blob:', 'about:'].includes(protocol) || ['127.0.0.1', 'localhost'].includes(hostname);
};

test('the API reference renders every action with a curl example, and no request leaves the machine', async ({
  page,
  context,
}) => {
  // It opens every action's section in turn (about thirty), each rendered as it comes into view.
  test.setTimeout(240_000);
  // Anything bound elsewhere (fonts, telemetry, scripts from a CDN) is recorded and refused.
  const outside: string[] = [];
  await context.route(
    (url) => !isLocal(url.href),
    (route) => {
      outside.push(route.request().url());
      return route.abort();
    },
  );

  const document = await (await page.request.get('/api/openapi.json')).json();
  expect(document.openapi).toBe('3.1.0');
  const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations as Record<string, { tags?: string[]; summary: string }>)
      .filter(([, operation]) => operation.tags?.includes('Actions'))
      .map(([method, operation]) => ({ path, method: method.toUpperCase(), summary: operation.summary })),
  );
  // Every path is an action, but for the deprecated aliases of messenger-named actions.
  const current = Object.values(document.paths).filter((operations) =>
    Object.entries(operations as Record<string, { deprecated?: boolean }>).some(
      ([method, operation]) => ['get', 'post'].includes(method) && !operation.deprecated,
    ),
  );
  expect(documented.length).toBeGreaterThanOrEqual(current.length);

  await page.goto('/docs/api');
  await expect(page.getByRole('heading', { name: 'Blockbot public API' })).toBeVisible();
  // Every action is listed under its summary, linking to its section.
  const sidebar = page.getByRole('complementary');
  for (const { path, method, summary } of documented) {
    await expect(sidebar.locator(`a[href="#tag/actions/${method}${path}"]`)).toContainText(summary);
  }

  // Each action's section shows an example request, built from the document's examples.
  const requestExample = (method: string, path: string) =>
    page.getByRole('group', { name: `Request Example for ${method.toLowerCase()}${path}` }).locator('code');
  for (const { path, method } of documented) {
    // Sections render as they come into view: go to each through the sidebar, as a reader would.
    await sidebar.locator(`a[href="#tag/actions/${method}${path}"]`).click();
    await expect(requestExample(method, path)).toContainText(`curl '`);
  }
  const getVariables = document.paths['/api/{api_key}/get_variables'].get;
  const clientId = getVariables.parameters.find((p: { name: string }) => p.name === 'client_id').example;
  await expect(requestExample('GET', '/api/{api_key}/get_variables')).toContainText(
    `/api/{api_key}/get_variables?client_id=${clientId}`,
  );
  const saveVariables = document.paths['/api/{api_key}/save_variables'].post;
  const body = saveVariables.requestBody.content['application/json'].example;
  await expect(requestExample('POST', '/api/{api_key}/save_variables')).toContainText(
    `"client_id": ${body.client_id}`,
  );
  await page.screenshot({ path: test.info().outputPath('api-reference.png') });

  await page.waitForLoadState('networkidle');
  expect(outside).toEqual([]);
});
