import { storableJson } from '@/lib/storable-json';
import type { PrismaClient } from './client-type';
import { GroupWrite } from './group-write';
import { type PreparedStatement, plainSql } from './raw-sql';

/**
 * A write many callers make at once, one row each, run as one statement over the rows that come
 * together (GroupWrite): under load it saves a round trip and a commit per row, in this process
 * and in the database. The statement reads the rows from `$rows`, a JSON array it takes apart
 * with jsonb_to_recordset (a kept plan; see PreparedStatement). `run` resolves once the
 * statement that carried its row has committed, and fails with it.
 */
export class BatchedStatement<Row extends object> {
  private readonly writes = new WeakMap<PrismaClient, GroupWrite<Row>>();

  constructor(readonly statement: PreparedStatement<unknown>) {}

  run(db: PrismaClient, row: Row): Promise<void> {
    let write = this.writes.get(db);
    if (!write) {
      write = new GroupWrite(async (rows) => {
        await plainSql(db).run(this.statement, { rows: storableJson(rows) });
      });
      this.writes.set(db, write);
    }
    return write.add(row);
  }
}
