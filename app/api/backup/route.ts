import { backupResponse } from '@/server/backup/backup-http';

export const dynamic = 'force-dynamic';

export function POST(request: Request) {
  return backupResponse(request);
}
