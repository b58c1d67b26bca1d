'use client';

import { useState } from 'react';
import { Card, CardTitle } from '@/components/ui/card';
import { cn } from '@/components/ui/cn';
import { CopyButton } from '@/components/ui/copy-button';

/** Receivers verifying a delivery with the Standard Webhooks libraries (docs/webhooks.md has the same). */
const SNIPPETS = [
  {
    language: 'Node.js',
    install: 'npm install standardwebhooks express',
    code: `import express from 'express';
import { Webhook } from 'standardwebhooks';

const wh = new Webhook(process.env.BLOCKBOT_WEBHOOK_SECRET); // whsec_…
const app = express();

// The raw body: the signature covers the bytes as sent.
app.post('/blockbot', express.raw({ type: 'application/json' }), (req, res) => {
  let event;
  try {
    event = wh.verify(req.body.toString('utf8'), req.headers);
  } catch {
    return res.sendStatus(400);
  }
  // Seen this webhook-id before? It is a repeat: answer 2xx and drop it.
  console.log(req.headers['webhook-id'], event.message);
  res.sendStatus(204);
});

app.listen(3000);`,
  },
  {
    language: 'Python',
    install: 'pip install standardwebhooks flask',
    code: `import os
from flask import Flask, request
from standardwebhooks.webhooks import Webhook

wh = Webhook(os.environ["BLOCKBOT_WEBHOOK_SECRET"])  # whsec_…
app = Flask(__name__)

@app.post("/blockbot")
def blockbot():
    try:
        # The raw body: the signature covers the bytes as sent.
        event = wh.verify(request.get_data(as_text=True), dict(request.headers))
    except Exception:
        return "", 400
    # Seen this webhook-id before? It is a repeat: answer 2xx and drop it.
    print(request.headers["webhook-id"], event.get("message"))
    return "", 204`,
  },
  {
    language: 'PHP',
    install: 'composer require standard-webhooks/standard-webhooks',
    code: `<?php
require __DIR__ . '/vendor/autoload.php';

$wh = new \\StandardWebhooks\\Webhook(getenv('BLOCKBOT_WEBHOOK_SECRET')); // whsec_…
// The raw body: the signature covers the bytes as sent.
$payload = file_get_contents('php://input');
$headers = [
    'webhook-id' => $_SERVER['HTTP_WEBHOOK_ID'] ?? '',
    'webhook-timestamp' => $_SERVER['HTTP_WEBHOOK_TIMESTAMP'] ?? '',
    'webhook-signature' => $_SERVER['HTTP_WEBHOOK_SIGNATURE'] ?? '',
];
try {
    $event = $wh->verify($payload, $headers);
} catch (Exception $e) {
    http_response_code(400);
    exit;
}
// Seen this webhook-id before? It is a repeat: answer 2xx and drop it.
error_log($headers['webhook-id'] . ' ' . ($event['message'] ?? ''));
http_response_code(204);`,
  },
] as const;

/** How to check that a delivery came from this project: the secret and a snippet per language. */
export function SignatureSnippets({ secret }: { secret: string | null }) {
  const [language, setLanguage] = useState<string>(SNIPPETS[0].language);
  const snippet = SNIPPETS.find((s) => s.language === language) ?? SNIPPETS[0];
  return (
    <Card>
      <CardTitle
        description={
          <>
            Each delivery carries the headers <code>webhook-id</code>, <code>webhook-timestamp</code> and{' '}
            <code>webhook-signature</code> (Standard Webhooks). Check them with the project&apos;s signing
            secret before trusting a body, and refuse a timestamp more than 5 minutes old (the libraries do
            both). The secret is under General, where you can rotate it.
          </>
        }
      >
        Verify the signature
      </CardTitle>
      {secret ? (
        <p className="mb-3 flex flex-wrap items-center gap-2 text-sm text-slate-600">
          Signing secret: <span className="font-mono text-xs">{`${secret.slice(0, 10)}…`}</span>
          <CopyButton value={secret} label="Copy secret" />
        </p>
      ) : null}
      <div role="tablist" aria-label="Language" className="mb-2 flex gap-1">
        {SNIPPETS.map((s) => (
          <button
            key={s.language}
            type="button"
            role="tab"
            aria-selected={s.language === language}
            onClick={() => setLanguage(s.language)}
            className={cn(
              'rounded-md px-3 py-1.5 text-sm',
              s.language === language
                ? 'bg-brand-50 font-medium text-brand-700'
                : 'text-slate-600 hover:bg-slate-100',
            )}
          >
            {s.language}
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={snippet.language} className="space-y-2">
        <div className="flex flex-wrap items-center gap-2">
          <code className="min-w-0 break-all rounded bg-slate-100 px-2 py-1 text-xs">{snippet.install}</code>
          <CopyButton value={snippet.code} label="Copy code" />
        </div>
        <pre className="max-h-96 overflow-auto rounded-md border border-slate-200 bg-slate-900 p-3 text-xs text-slate-100">
          {snippet.code}
        </pre>
      </div>
    </Card>
  );
}
