import { saveProvider } from '@/server/ai/ai-settings';
import type { FakeOpenAi } from '@/server/ai/testing/fake-openai';
import type { PrismaClient } from '@/server/db/client-type';
import { setSecret } from '@/server/secrets/secret-service';
import type { KnowledgeEmbedder } from './embedder';

/**
 * A deterministic local embedder for tests and the bench: a hashed bag of words (each word,
 * lower-cased and with a plural "s" dropped, adds 1 to one of `dimensions` slots), normalised.
 * Texts sharing words are near; no network, no model. `calls` records every batch embedded.
 */
export function hashingEmbedder(dimensions = 256, model = `hash-bow-${dimensions}`) {
  const calls: string[][] = [];
  const embedder: KnowledgeEmbedder & { calls: string[][] } = {
    model,
    calls,
    async embed(texts) {
      calls.push(texts);
      return texts.map((t) => hashedVector(t, dimensions));
    },
  };
  return embedder;
}

export function hashedVector(text: string, dimensions: number): number[] {
  const vector: number[] = new Array(dimensions).fill(0);
  for (const raw of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const word = raw.length > 3 ? raw.replace(/s$/, '') : raw;
    vector[fnv1a(word) % dimensions] += 1;
  }
  // A text with no words still gets a valid (non-zero) vector.
  if (!vector.some((x) => x !== 0)) vector[0] = 1;
  const norm = Math.sqrt(vector.reduce((s, x) => s + x * x, 0));
  return vector.map((x) => x / norm);
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** An embedder that answers with vectors of the wrong size, or fails, for the failure tests. */
export function brokenEmbedder(
  kind: 'wrong-dimensions' | 'throws',
  model = 'hash-bow-256',
): KnowledgeEmbedder {
  return {
    model,
    async embed(texts) {
      if (kind === 'throws') throw new Error('the provider answered HTTP 503');
      return texts.map(() => [1, 0, 0]);
    },
  };
}

/** A minimal valid one-page PDF with these lines of text (Helvetica), written by hand. */
export function minimalPdf(lines: string[]): Uint8Array {
  const pdfString = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const content = `BT /F1 12 Tf 72 720 Td ${lines.map((l, i) => `${i ? '0 -16 Td ' : ''}(${pdfString(l)}) Tj`).join(' ')} ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(pdf);
}

/** The AI plan, and the fake OpenAI server as the project's default provider with an embedding model. */
export async function setFakeProvider(db: PrismaClient, projectId: number, fake: FakeOpenAi) {
  await db.project.update({ where: { id: projectId }, data: { plan: 'ai' } });
  await setSecret(db, projectId, 'OPENAI_KEY', fake.apiKey);
  await saveProvider(db, projectId, null, {
    name: 'fake',
    baseUrl: fake.url,
    chatModel: 'gpt-4o-mini',
    embeddingModel: 'text-embedding-3-small',
    apiKeySecret: 'OPENAI_KEY',
  });
}
