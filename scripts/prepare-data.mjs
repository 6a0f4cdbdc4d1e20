// Creates the data folder for `npm run dev` (the server migrates the database itself).
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

mkdirSync(dirname(resolve(process.env.DATABASE_PATH || './data/app.db')), { recursive: true, mode: 0o700 });
