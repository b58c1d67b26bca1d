'use client';

import { ApiReferenceReact } from '@scalar/api-reference-react';
import '@scalar/api-reference-react/style.css';

/**
 * Scalar's API reference over /api/openapi.json, with everything that would reach a third-party
 * host switched off: its web fonts (system fonts instead), telemetry, the AI agent and MCP
 * offers, and the request client with its proxy. The curl examples come from the document.
 */
export function ApiReference() {
  return (
    <ApiReferenceReact
      configuration={{
        url: '/api/openapi.json',
        withDefaultFonts: false,
        telemetry: false,
        agent: { disabled: true },
        mcp: { disabled: true },
        hideClientButton: true,
        hideTestRequestButton: true,
        showDeveloperTools: 'never',
        documentDownloadType: 'json',
        defaultHttpClient: { targetKey: 'shell', clientKey: 'curl' },
      }}
    />
  );
}
