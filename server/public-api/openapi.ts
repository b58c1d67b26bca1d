import { z } from 'zod';
import { API_KEY_PLACEHOLDER, apiCallUrl } from '@/lib/api-call';
import type { ApiAction } from './action';
import { actions } from './actions';
import { actionAliases, parameterAliases } from './actions/aliases';
import { isClientMethod, LOCATING_DOC } from './locate-client';

/**
 * The OpenAPI 3.1 document of the public API, generated from the same zod schemas that
 * validate requests, so the reference cannot drift from the code.
 */
export function buildOpenApiDocument(serverUrl = '/') {
  const paths: Record<string, unknown> = {};
  for (const action of actions) paths[`/api/{api_key}/${action.name}`] = pathItem(serverUrl, action);
  for (const alias of actionAliases) {
    paths[`/api/{api_key}/${alias.name}`] = pathItem(serverUrl, alias.target, alias.name);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Blockbot public API',
      version: '1',
      description:
        'Start bots, send messages and broadcasts, read and write variables, manage clients, lists and deals. The API key is a path segment of every call. Every action accepts GET (query string) and POST (JSON or form body); `value_client_id`, `value_phone`, `value_email`, `value_user_id` and `value_group_id` name the parameter that holds that identifier (universal-webhook mode); on the actions that take `client_id`, the phone, e-mail and user_id locate the client.',
    },
    servers: [{ url: serverUrl }],
    tags: [
      { name: 'Actions', description: 'Every action, with the methods it is documented for.' },
      {
        name: 'Deprecated aliases',
        description:
          'The messenger-named actions of the commercial platform, kept so code written for it works unchanged: each runs the interface action it names.',
      },
      {
        name: 'Universal-webhook mode',
        description:
          'The same actions with their other method: any action accepts GET and POST, so a webhook of another service can call it as it is.',
      },
    ],
    paths,
    webhooks: { message: messageWebhook, message_status: statusWebhook, submission: submissionWebhook },
    components: {
      parameters: {
        ApiKey: {
          name: 'api_key',
          in: 'path',
          required: true,
          description: "A key from the project's API keys tab.",
          schema: { type: 'string' },
        },
      },
      responses: {
        Error: {
          description: 'An error: what is wrong and how to fix it',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['status', 'error', 'message'],
                properties: {
                  status: { const: 'error' },
                  error: { type: 'string' },
                  message: { type: 'string' },
                },
              },
              example: { status: 'error', error: 'missing_parameter', message: 'client_id is required.' },
            },
          },
        },
      },
    },
  };
}

/**
 * The path of one action: `name` is the action's own, or one of its deprecated aliases
 * (actions/aliases.ts), documented as such.
 */
function pathItem(serverUrl: string, action: ApiAction, name = action.name) {
  const errorResponse = { $ref: '#/components/responses/Error' };
  const aliasOf = name === action.name ? null : action.name;
  const clientMethod = isClientMethod(action);
  const schema = z.toJSONSchema(action.input, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  const renamed = Object.entries(parameterAliases[action.name] ?? {}).map(
    ([old, current]) => ` \`${old}\` is accepted in place of \`${current}\`.`,
  );
  const operations: Record<string, unknown> = {};
  for (const method of ['get', 'post'] as const) {
    const documented = action.methods.includes(method.toUpperCase() as 'GET' | 'POST');
    const description = [
      aliasOf
        ? `Deprecated alias of \`${aliasOf}\`, the name the commercial platform uses: it runs \`${aliasOf}\` with the same parameters and answer. New code should call \`${aliasOf}\`.`
        : '',
      action.description ?? '',
      clientMethod ? LOCATING_DOC : '',
      renamed.length ? `Deprecated parameter names:${renamed.join('')}` : '',
      documented ? '' : 'Also accepted with this method (universal-webhook mode).',
    ];
    operations[method] = {
      operationId: `${name}_${method}`,
      summary: aliasOf ? `${action.summary} (deprecated alias of ${aliasOf})` : action.summary,
      description: description.filter(Boolean).join('\n\n'),
      tags: [aliasOf ? 'Deprecated aliases' : documented ? 'Actions' : 'Universal-webhook mode'],
      ...(aliasOf ? { deprecated: true } : {}),
      'x-codeSamples': [
        { lang: 'Shell', label: 'curl', source: curlExample(serverUrl, action, method, name) },
      ],
      ...(method === 'get'
        ? { parameters: queryParameters(schema, action.example) }
        : {
            requestBody: {
              content: {
                'application/json': { schema, example: action.example },
                'application/x-www-form-urlencoded': { schema },
              },
            },
          }),
      responses: {
        200: {
          description: 'Success',
          content: { 'application/json': { example: { status: 'success', ...action.responseExample } } },
        },
        400: errorResponse,
        401: errorResponse,
        403: errorResponse,
        404: errorResponse,
        ...(clientMethod ? { 409: errorResponse } : {}),
        413: errorResponse,
        429: errorResponse,
      },
    };
  }
  return { parameters: [{ $ref: '#/components/parameters/ApiKey' }], ...operations };
}

/** The client a webhook body carries (server/webhooks/webhook-payload.ts). */
const webhookClient = {
  type: 'object',
  required: ['id', 'recepient', 'client_type', 'name', 'avatar', 'created_at', 'tag', 'group'],
  properties: {
    id: { type: 'integer', description: 'client_id of the API' },
    recepient: {
      type: 'string',
      description: "The client's id in its messenger (platform_id)",
    },
    client_type: {
      type: 'integer',
      description: '1 tg, 5 widget, 6 chat-app, 10 social, 13 telephony, 99 simulator',
    },
    name: { type: 'string' },
    avatar: { type: 'string' },
    created_at: { type: 'integer', description: 'Unix time in seconds' },
    tag: { type: 'string' },
    group: { type: 'string', description: 'The connected bot (group_id)' },
    custom_answer: {
      type: 'string',
      description:
        "The reply of the client's last block request (#{custom_answer}), at most 100,000 characters; absent until a block request ran for the client",
    },
  },
};

const exampleClient = {
  id: 1002,
  recepient: '79001234567',
  client_type: 6,
  name: 'Ann',
  avatar: '',
  created_at: 1767225600,
  tag: '',
  group: '42',
};

/** A webhook's OpenAPI operation: its JSON body, signed and accepted whatever the answer. */
function webhookOperation<Schema, Example>(operation: {
  summary: string;
  description: string;
  schema: Schema;
  example: Example;
}) {
  const { summary, description, schema, example } = operation;
  return {
    post: {
      summary,
      description,
      requestBody: { content: { 'application/json': { schema, example } } },
      responses: {
        200: { description: 'Any answer is accepted; a failed delivery is recorded, not retried.' },
      },
    },
  };
}

/** The outbound webhook (server/webhooks/webhook-payload.ts, bot-semantics §7). */
const messageWebhook = webhookOperation({
  summary: "Every received or sent message, POSTed to the project's webhook URL",
  description:
    "Sent once per message as JSON; a delivery that got an answer, even an error, is not repeated (one cut off by a crash is, under the same `webhook-id`). Signed with Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`) and the project's signing secret from the settings. The fields are those receivers written for the commercial platform read; `recepient` is spelled so for compatibility.",
  schema: {
    type: 'object',
    required: [
      'id',
      'client',
      'message',
      'attachments',
      'message_id',
      'project_id',
      'is_input',
      'delivered',
      'error_message',
    ],
    properties: {
      id: { type: 'integer', description: 'The message id' },
      client: webhookClient,
      message: { type: 'string' },
      attachments: { type: 'array', items: { type: 'object' } },
      message_id: {
        type: ['integer', 'null'],
        description: "The block that sent it, or the client's block when it arrived",
      },
      project_id: { type: 'integer' },
      is_input: { enum: [0, 1], description: '1 received from the client, 0 sent to the client' },
      delivered: { enum: [0, 1] },
      error_message: {
        type: ['string', 'null'],
        description: 'Why a sent message was not delivered',
      },
    },
  },
  example: {
    id: 5012,
    client: { ...exampleClient, custom_answer: '{"status":"ok"}' },
    message: 'Your order is ready',
    attachments: [],
    message_id: 3,
    project_id: 7,
    is_input: 0,
    delivered: 1,
    error_message: null,
  },
});

/** A red or yellow block's submission (server/webhooks/webhook-payload.ts, bot-semantics §2). */
const submissionWebhook = webhookOperation({
  summary:
    "Every submission of a red (close_deal) or yellow (data_transfer) block, POSTed to the project's webhook URL",
  description:
    'Sent once per submission as JSON, after the webhooks of the messages of the same event, under the `webhook-id` `sub_<project>_<submission>`, signed like the message webhook. Told apart from a message by `type: "submission"`. `kept` says whether the deal stays open (yellow) or was closed and a new one opened (red).',
  schema: {
    type: 'object',
    required: ['type', 'id', 'client', 'submission', 'project_id'],
    properties: {
      type: { const: 'submission' },
      id: { type: 'integer', description: 'The submission id' },
      client: webhookClient,
      submission: {
        type: 'object',
        required: ['id', 'block_id', 'deal_id', 'kept', 'variables', 'created_at'],
        properties: {
          id: { type: 'integer' },
          block_id: { type: 'integer', description: 'The red or yellow block' },
          deal_id: { type: ['integer', 'null'], description: 'order_id of the deal submitted' },
          kept: {
            type: 'boolean',
            description: 'true: yellow, the deal stays open; false: red, it is closed',
          },
          variables: {
            type: 'object',
            additionalProperties: { type: 'string' },
            description: "The deal's variables at the moment of submission",
          },
          created_at: { type: 'integer', description: 'Unix time in seconds' },
        },
      },
      project_id: { type: 'integer' },
    },
  },
  example: {
    type: 'submission',
    id: 88,
    client: exampleClient,
    submission: {
      id: 88,
      block_id: 7,
      deal_id: 301,
      kept: false,
      variables: { item: 'pizza', address: 'Main St 1' },
      created_at: 1767229200,
    },
    project_id: 7,
  },
});

/** A messenger's report on a sent message (server/webhooks/webhook-payload.ts). */
const statusWebhook = webhookOperation({
  summary: "Every delivery status a messenger reports on a sent message, POSTed to the project's webhook URL",
  description:
    'Sent once per status as JSON, after the webhook of the message itself, under the `webhook-id` `msg_<project>_<message>_<status>`, signed like the message webhook. Told apart from a message by `type: "message_status"`; `id` is the message\'s id. Only messengers that report it send `delivered` (on the client\'s device), `read` and a late `failed`; a status never moves back (a `delivered` arriving after `read` is dropped).',
  schema: {
    type: 'object',
    required: ['type', 'id', 'client', 'status', 'delivered', 'error_message', 'message_id', 'project_id'],
    properties: {
      type: { const: 'message_status' },
      id: { type: 'integer', description: "The message id (the message webhook's `id`)" },
      client: webhookClient,
      status: { enum: ['sent', 'delivered', 'read', 'failed'] },
      delivered: { enum: [0, 1], description: '0 when the status is failed' },
      error_message: { type: ['string', 'null'], description: "The messenger's error, when failed" },
      message_id: { type: ['integer', 'null'], description: 'The block that sent it' },
      project_id: { type: 'integer' },
    },
  },
  example: {
    type: 'message_status',
    id: 5012,
    client: exampleClient,
    status: 'read',
    delivered: 1,
    error_message: null,
    message_id: 3,
    project_id: 7,
  },
});

function queryParameters(schema: Record<string, unknown>, example: Record<string, unknown>) {
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema: property,
    ...(example[name] === undefined ? {} : { example: queryValue(example[name]) }),
  }));
}

/** A query string carries text: lists of plain values comma-separated, anything structured as JSON. */
function queryValue(value: unknown): string {
  const plain = (v: unknown) => v === null || typeof v !== 'object';
  if (Array.isArray(value) && value.every(plain)) return value.join(',');
  return plain(value) ? String(value) : JSON.stringify(value);
}

/** The action's example as a curl command, for the reference page. */
function curlExample(
  serverUrl: string,
  action: ApiAction,
  method: 'get' | 'post',
  name = action.name,
): string {
  const url = apiCallUrl(serverUrl, API_KEY_PLACEHOLDER, name);
  if (method === 'get') {
    const query = new URLSearchParams(
      Object.entries(action.example).map(([name, value]) => [name, queryValue(value)]),
    ).toString();
    return `curl '${url}${query ? `?${query}` : ''}'`;
  }
  const body = JSON.stringify(action.example).replaceAll("'", "'\\''");
  return `curl -X POST '${url}' \\\n  -H 'Content-Type: application/json' \\\n  -d '${body}'`;
}
