/**
 * Channels' credentials opened once per process (decrypting on every update and send would
 * cost more than the rest of it): the least recently used beyond `max` is dropped. Keyed by the
 * sealed values, so a channel connected again with new ones is opened again.
 */
export class OpenedCredentials<T> {
  readonly #opened = new Map<string, T>();
  constructor(readonly max = 256) {}

  get(key: string, open: () => T): T {
    let value = this.#opened.get(key);
    if (value !== undefined) this.#opened.delete(key);
    else value = open();
    this.#opened.set(key, value);
    if (this.#opened.size > this.max) this.#opened.delete(this.#opened.keys().next().value as string);
    return value;
  }
}
