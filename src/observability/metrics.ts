import { Inject, Injectable, OnApplicationBootstrap, Optional } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { ModuleRef } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Registry } from 'prom-client';
import { DataSource } from 'typeorm';

import type { AdmissionCounts, MetricSeries } from './metric-series';
import type { OperationReport } from './operation-report';
import { observabilityConfig } from '../config/observability.config';
import { TrustedDocumentsConfig, trustedDocumentsConfig } from '../config/trusted-documents.config';

/**
 * The app's Prometheus metrics ({@link MetricSeries}). Nothing is collected when
 * `METRICS_ENABLED` is off, and prom-client is not even loaded.
 */
@Injectable()
export class BlogMetrics implements OnApplicationBootstrap {
  readonly enabled: boolean;
  private readonly series: MetricSeries | null = null;

  constructor(
    @Inject(observabilityConfig.KEY) config: ConfigType<typeof observabilityConfig>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly moduleRef: ModuleRef,
    @Optional()
    @Inject(trustedDocumentsConfig.KEY)
    trusted?: TrustedDocumentsConfig,
  ) {
    this.enabled = config.metrics.enabled;
    if (!this.enabled) return;
    // Required here, not imported, so that with metrics off none of prom-client is loaded.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { MetricSeries } = require('./metric-series') as typeof import('./metric-series');
    this.series = new MetricSeries(Object.values(trusted?.documents ?? {}));
  }

  /** The registry that `/metrics` serves; there is none while metrics are off. */
  get registry(): Registry | undefined {
    return this.series?.registry;
  }

  onApplicationBootstrap(): void {
    this.series?.start(this.moduleRef, this.dataSource);
  }

  record(report: OperationReport): void {
    this.series?.record(report);
  }

  /** Serves the HTTP admission queue's counts as gauges (nothing while metrics are off). */
  watchAdmission(admission: AdmissionCounts): void {
    this.series?.gaugeAdmission(admission);
  }
}
