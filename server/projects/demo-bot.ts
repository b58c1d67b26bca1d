// The demo bot is plain data, in lib/ so the builder offers it as a template too.
export { demoBotSchema } from '@/lib/schema/demo-bot';
