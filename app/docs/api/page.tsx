import { ApiReference } from './api-reference';

export const metadata = { title: 'API reference' };

/**
 * The public API reference: /api/openapi.json (generated from the zod schemas that validate
 * requests, so it cannot drift from the code) rendered in the browser by Scalar's prebuilt
 * bundle, which the app serves itself.
 */
export default function ApiReferencePage() {
  return <ApiReference />;
}
