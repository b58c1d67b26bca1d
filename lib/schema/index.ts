export * from './bot-schema';
export * from './parse';
