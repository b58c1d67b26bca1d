import { describe, expect, it } from 'vitest';
import { apiCallUrl, exampleApiCall } from './api-call';

describe('example API calls', () => {
  it('builds {base_url}/api/{api_key}/{action}, whatever slashes end the base URL', () => {
    expect(apiCallUrl('https://bots.example.com/', 'bb_k', 'get_variables')).toBe(
      'https://bots.example.com/api/bb_k/get_variables',
    );
    expect(apiCallUrl('http://localhost:3000', 'bb_k', 'message')).toBe(
      'http://localhost:3000/api/bb_k/message',
    );
  });

  it('offers get_messages with the key, or a placeholder without one', () => {
    expect(exampleApiCall('https://bots.example.com', 'bb_abc')).toBe(
      "curl 'https://bots.example.com/api/bb_abc/get_messages'",
    );
    expect(exampleApiCall('https://bots.example.com')).toBe(
      "curl 'https://bots.example.com/api/YOUR_API_KEY/get_messages'",
    );
  });
});
