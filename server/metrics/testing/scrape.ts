import parsePrometheusTextFormat from 'parse-prometheus-text-format';

export interface Scrape {
  families: ReturnType<typeof parsePrometheusTextFormat>;
  /** A counter's or gauge's value with exactly these labels (0 when absent). */
  value(name: string, labels?: Record<string, string>): number;
  /** A histogram's count of observations with these labels (in the order they are exported). */
  count(name: string, labels?: Record<string, string>): number;
}

/**
 * Parses an exposition with a Prometheus text parser, as a scraper reads it (it throws on a line
 * that is not the format). The parser merges a histogram's label sets into one, so a labelled
 * histogram's count is read from its `_count` line.
 */
export function parseScrape(text: string): Scrape {
  const families = parsePrometheusTextFormat(text);
  const sample = (name: string, labels: Record<string, string>) =>
    families
      .find((f) => f.name === name)
      ?.metrics.find((m) => JSON.stringify(sortKeys(m.labels ?? {})) === JSON.stringify(sortKeys(labels)));
  return {
    families,
    value: (name, labels = {}) => Number(sample(name, labels)?.value ?? 0),
    count: (name, labels = {}) => {
      const set = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
      const line = `${name}_count${set.length ? `{${set.join(',')}}` : ''} `;
      const found = text.split('\n').find((l) => l.startsWith(line));
      return found ? Number(found.slice(line.length)) : 0;
    },
  };
}

const sortKeys = (o: Record<string, string>) => Object.fromEntries(Object.entries(o).sort());

/** GETs a metrics endpoint with the token and parses it. */
export async function scrape(url: string, token: string): Promise<Scrape> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (response.status !== 200)
    throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  return parseScrape(await response.text());
}
