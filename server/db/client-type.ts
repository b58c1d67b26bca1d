import type { Prisma, PrismaClient } from './generated/client';

/** What domain modules take: the client, or a transaction of it. */
export type Db = PrismaClient | Prisma.TransactionClient;
export type { PrismaClient };
