import { ApiReference } from './api-reference';

export const metadata = { title: 'API reference' };

/**
 * The public API reference: /api/openapi.json (generated from the zod schemas that validate
 * requests, so it cannot drift from the code) rendered by Scalar, bundled with the app.
 */
export default function ApiReferencePage() {
  return <ApiReference />;
}
