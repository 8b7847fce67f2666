import 'dotenv/config';
import { DataSource } from 'typeorm';

import { loadDatabaseConfig } from './src/config/database.config';
import { buildDataSourceOptions } from './src/database/data-source-options';

export default new DataSource(buildDataSourceOptions(loadDatabaseConfig()));
