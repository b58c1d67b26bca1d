/** Stands for the key in examples where the key itself is not at hand. */
export const API_KEY_PLACEHOLDER = 'YOUR_API_KEY';

/** The address of a public API call: `{base_url}/api/{api_key}/{action}` (platform-interface). */
export function apiCallUrl(baseUrl: string, apiKey: string, action: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/api/${apiKey}/${action}`;
}

/**
 * The call the API keys tab offers to copy: `get_messages` lists the bot's blocks and changes
 * nothing, so it can be tried at once with a new key.
 */
export function exampleApiCall(baseUrl: string, apiKey: string = API_KEY_PLACEHOLDER): string {
  return `curl '${apiCallUrl(baseUrl, apiKey, 'get_messages')}'`;
}
