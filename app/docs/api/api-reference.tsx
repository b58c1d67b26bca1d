'use client';

import Script from 'next/script';
import { useEffect, useRef, useState } from 'react';

/** What Scalar's browser bundle (public/api-reference.js, scripts/copy-api-reference.mjs) defines. */
interface ScalarGlobal {
  createApiReference(element: HTMLElement, configuration: object): { destroy(): void };
}

/**
 * Everything that would reach a third-party host is switched off: Scalar's web fonts (system
 * fonts instead), telemetry, the AI agent and MCP offers, and the request client with its proxy.
 * The curl examples come from the document.
 */
const configuration = {
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
};

/** Scalar's API reference over /api/openapi.json, from its prebuilt bundle served by the app. */
export function ApiReference() {
  const element = useRef<HTMLDivElement>(null);
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    const scalar = (window as { Scalar?: ScalarGlobal }).Scalar;
    if (!loaded || !scalar || !element.current) return;
    const reference = scalar.createApiReference(element.current, configuration);
    return () => reference.destroy();
  }, [loaded]);
  return (
    <>
      <Script src="/api-reference.js" onReady={() => setLoaded(true)} />
      <div ref={element} />
    </>
  );
}
