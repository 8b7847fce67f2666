import 'reflect-metadata';
import { DataSource } from 'typeorm';

import { canonicalIdentifier, Role, User } from '../blog';
import { loadDatabaseConfig } from '../config/database.config';
import { loadEnvFile } from '../config/env-file';
import { buildDataSourceOptions } from '../database/data-source-options';

const USAGE = 'Usage: npm run user:admin -- <email> [--revoke]';

/**
 * Grants (or with `--revoke` takes back, making them an author) the admin role of the user with
 * `email`, on the database that DATABASE_URL names: it makes the first admin, who then gives
 * roles with `setUserRole`. Returns the exit code and what to print.
 */
export async function makeAdmin(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number; message: string }> {
  const revoke = args.includes('--revoke');
  const emails = args.filter((arg) => !arg.startsWith('--'));
  if (emails.length !== 1) return { code: 2, message: USAGE };
  const email = canonicalIdentifier(emails[0]);
  const dataSource = new DataSource(
    buildDataSourceOptions(loadDatabaseConfig(env), { migrationsRun: true }),
  );
  await dataSource.initialize();
  try {
    const users = dataSource.getRepository(User);
    const user = await users.findOneBy({ email });
    if (!user) return { code: 1, message: `No user has the email ${email}.` };
    const role = revoke ? Role.AUTHOR : Role.ADMIN;
    await users.update({ id: user.id }, { role, updatedAt: new Date() });
    return {
      code: 0,
      message: `${user.name} <${email}> is ${revoke ? 'no longer' : 'now'} an admin.`,
    };
  } finally {
    await dataSource.destroy();
  }
}

if (require.main === module) {
  // As the service does: .env of the working directory, under the real environment.
  loadEnvFile();
  makeAdmin(process.argv.slice(2)).then(
    ({ code, message }) => {
      (code === 0 ? console.log : console.error)(message);
      process.exit(code);
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
