import { describe, expect, it } from 'vitest';
import { formErrors } from './form-errors';

describe('a form’s errors by field', () => {
  const fields = ['name', 'baseUrl', 'timeoutSeconds'];

  it('puts each issue under its field, without the input’s path, and keeps the others for the form', () => {
    const errors = formErrors(
      {
        message: 'settings.name: empty; settings.baseUrl: not a URL; projectId: too small',
        data: {
          issues: [
            { path: 'settings.name', message: 'empty: name the provider' },
            { path: 'settings.baseUrl', message: 'not a URL' },
            { path: 'projectId', message: 'too small' },
          ],
        },
      },
      'settings.',
      fields,
    );
    expect(errors.of('name')).toBe('empty: name the provider');
    expect(errors.of('baseUrl')).toBe('not a URL');
    expect(errors.of('timeoutSeconds')).toBeNull();
    expect(errors.rest).toEqual({ message: 'projectId: too small' });
  });

  it('shows a domain error under the field it names, and any other as the form’s', () => {
    const named = formErrors(
      { message: 'A provider named fake exists', data: { field: 'name' } },
      '',
      fields,
    );
    expect(named.of('name')).toBe('A provider named fake exists');
    expect(named.rest).toBeNull();
    const general = formErrors({ message: 'at most 10 providers', data: {} }, '', fields);
    expect(general.of('name')).toBeNull();
    expect(general.rest).toMatchObject({ message: 'at most 10 providers' });
    expect(formErrors(null, '', fields)).toMatchObject({ rest: null });
  });
});
