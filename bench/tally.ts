import type { RoundFigures } from './tg-load';

/** A benchmark's answered messages: their latencies, its time and CPU, printed as one line. */
export class Tally {
  /** What is counted, in the plural: `updates`, `messages`. */
  constructor(readonly unit = 'updates') {}

  readonly latencies: number[] = [];
  ms = 0;
  /** This process's CPU time: the bot and the fake, and the load when it runs here (the database's is its own). */
  cpuMs = 0;
  /** A forked load process's CPU time. */
  loadCpuMs = 0;

  add(figures: RoundFigures, cpuMs: number, loadCpuMs = 0) {
    this.latencies.push(...figures.latencies);
    this.ms += figures.ms;
    this.cpuMs += cpuMs;
    this.loadCpuMs += loadCpuMs;
  }

  report(name: string) {
    const { unit } = this;
    const sorted = [...this.latencies].sort((a, b) => a - b);
    const p = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1);
    const rate = (sorted.length / this.ms) * 1000;
    const perUpdate = (ms: number) => (ms / sorted.length).toFixed(2);
    const cpu = this.cpuMs
      ? `   CPU ${perUpdate(this.cpuMs)} ms/${unit.replace(/s$/, '')}${this.loadCpuMs ? ` (+ load's ${perUpdate(this.loadCpuMs)})` : ''}`
      : '';
    console.log(
      `${name.padEnd(40)} ${rate.toFixed(0).padStart(6)} ${unit}/s   p50 ${p(0.5)} ms   p99 ${p(0.99)} ms${cpu}`,
    );
    return { rate, p99: Number(p(0.99)) };
  }
}
