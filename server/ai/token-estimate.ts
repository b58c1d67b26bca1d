/**
 * Tokens counted by Blockbot when a server reports none (Ollama, llama.cpp and vLLM unless
 * asked), so that its calls count against the daily limit: OpenAI's o200k encoding
 * (gpt-tokenizer), near enough for other models' tokenizers to stop a runaway day. The encoding
 * is loaded on the first estimate only (tens of MB): a server whose providers report usage
 * never holds it.
 */

/** What each message adds to its text: its role and separators (OpenAI's chat format). */
const PER_MESSAGE = 4;

let encoding: Promise<{ countTokens: (text: string) => number }> | undefined;

export async function estimateTokens(texts: readonly string[], messages = 0): Promise<number> {
  encoding ??= import('gpt-tokenizer/encoding/o200k_base').catch((error: unknown) => {
    encoding = undefined;
    throw error;
  });
  const { countTokens } = await encoding;
  return texts.reduce((n, text) => n + (text ? countTokens(text) : 0), messages * PER_MESSAGE);
}
