import { describe, expect, it } from 'vitest';
import { nullRecord } from './null-record';

describe('nullRecord', () => {
  it('reaches no prototype member, and takes __proto__ and constructor as its own keys', () => {
    const record = nullRecord<string>();
    // A parameter's name, as a request could send it.
    const proto = ['__', 'proto', '__'].join('');
    expect(record.toString).toBeUndefined();
    expect(record.constructor).toBeUndefined();
    expect('hasOwnProperty' in record).toBe(false);
    record[proto] = 'a';
    const ctor: string = 'constructor';
    record[ctor] = 'b';
    expect(Object.keys(record)).toEqual(['__proto__', 'constructor']);
    expect(JSON.stringify(record)).toBe('{"__proto__":"a","constructor":"b"}');
    // Its prototype is shared and frozen: no record can reach the others through it.
    expect(Object.isFrozen(Object.getPrototypeOf(record))).toBe(true);
    expect(nullRecord<string>()[proto]).toBeUndefined();
  });
});
