import type { ModuleRef } from '@nestjs/core';
import { Kind, parse } from 'graphql';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DataSource } from 'typeorm';

import { BlogWebSocketServer, PublicationFanOut } from '../blog';
import { BoundedLabels, OperationNameLabels } from './bounded-labels';
import type { OperationReport } from './operation-report';

/**
 * Distinct operation names with series of their own, besides those of the trusted documents; the
 * rest are `other`. Names hold their place by recent use ({@link OperationNameLabels}).
 */
export const MAX_OPERATION_NAMES = 200;
const MAX_ERROR_CODES = 50;
const OPERATION_LABELS = ['operation_name', 'operation_type', 'outcome'] as const;

/** What the HTTP admission queue tells of itself (`src/http/admission.ts`). */
export interface AdmissionCounts {
  readonly pending: number;
  readonly inFlight: number;
  /** False when it does not cap requests in flight, and so does not count them. */
  readonly capped: boolean;
}

interface PgPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/**
 * The app's Prometheus series, in a registry of their own (not prom-client's global one), so that
 * several apps in one process do not clash. Only {@link BlogMetrics} makes them, and only when
 * `METRICS_ENABLED` is on: this file is the one that loads prom-client.
 */
export class MetricSeries {
  readonly registry = new Registry();
  private readonly names: OperationNameLabels;
  /** The type and outcome labels each named series was recorded with, to remove them with it. */
  private readonly seriesOf = new Map<string, Set<string>>();
  private readonly codes = new BoundedLabels(MAX_ERROR_CODES);
  private readonly operations: Counter<(typeof OPERATION_LABELS)[number]>;
  private readonly durations: Histogram<(typeof OPERATION_LABELS)[number]>;
  private readonly errors: Counter<'code'>;

  /** `trustedDocuments`: the texts of the trusted documents, whose operation names stay pinned. */
  constructor(trustedDocuments: string[]) {
    this.names = new OperationNameLabels(MAX_OPERATION_NAMES, {
      pinned: operationNamesOf(trustedDocuments),
      evicted: (name) => this.removeSeries(name),
    });
    const registers = [this.registry];
    this.operations = new Counter({
      name: 'graphql_operations_total',
      help: 'GraphQL operations over HTTP, by operation name, type and outcome.',
      labelNames: OPERATION_LABELS,
      registers,
    });
    this.durations = new Histogram({
      name: 'graphql_operation_duration_seconds',
      help: 'Time from receiving a GraphQL operation to sending its response.',
      labelNames: OPERATION_LABELS,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.errors = new Counter({
      name: 'graphql_errors_total',
      help: 'Errors in GraphQL responses, by extensions.code.',
      labelNames: ['code'],
      registers,
    });
  }

  /** The process's default metrics and the gauges read at each scrape. */
  start(moduleRef: ModuleRef, dataSource: DataSource): void {
    collectDefaultMetrics({ register: this.registry });
    this.gaugeSubscriptions(moduleRef);
    this.gaugeFanOut(moduleRef);
    this.gaugePostgresPool(dataSource);
  }

  record(report: OperationReport): void {
    const labels = {
      operation_name:
        report.operationName === null
          ? 'anonymous'
          : this.names.label(report.operationName, report),
      operation_type: report.operationType,
      outcome: report.outcome,
    };
    this.remember(labels);
    this.operations.inc(labels);
    this.durations.observe(labels, report.durationMs / 1000);
    for (const code of report.errorCodes) this.errors.inc({ code: this.codes.label(code) });
  }

  private remember(labels: Record<(typeof OPERATION_LABELS)[number], string>): void {
    let series = this.seriesOf.get(labels.operation_name);
    if (!series) this.seriesOf.set(labels.operation_name, (series = new Set()));
    series.add(`${labels.operation_type}\0${labels.outcome}`);
  }

  /** Drops the series of a name that lost its label, so that series stay bounded. */
  private removeSeries(name: string): void {
    for (const series of this.seriesOf.get(name) ?? []) {
      const [operation_type, outcome] = series.split('\0');
      const labels = { operation_name: name, operation_type, outcome };
      this.operations.remove(labels);
      this.durations.remove(labels);
    }
    this.seriesOf.delete(name);
  }

  private gaugeSubscriptions(moduleRef: ModuleRef): void {
    let server: BlogWebSocketServer;
    try {
      server = moduleRef.get(BlogWebSocketServer, { strict: false });
    } catch {
      return;
    }
    this.gauge(
      'graphql_subscriptions_open',
      'GraphQL subscriptions running now, on every WebSocket connection.',
      () => server.openSubscriptions,
    );
    this.gauge(
      'graphql_websocket_connections_open',
      'Open graphql-ws WebSocket connections.',
      () => server.openConnections,
    );
  }

  /** The publications whose fan-out failed too often and was parked (notifications feature). */
  private gaugeFanOut(moduleRef: ModuleRef): void {
    let fanOut: PublicationFanOut;
    try {
      fanOut = moduleRef.get(PublicationFanOut, { strict: false });
    } catch {
      return;
    }
    this.gauge(
      'notification_fan_outs_parked',
      "Publications whose followers' fan-out this instance parked after repeated failures, since it started.",
      () => fanOut.parked,
    );
  }

  /** Gauges of the HTTP admission queue: waiting requests, and those in flight under a cap. */
  gaugeAdmission(admission: AdmissionCounts): void {
    this.gauge(
      'http_requests_waiting',
      'GraphQL requests over HTTP received and waiting for their turn to start.',
      () => admission.pending,
    );
    if (!admission.capped) return;
    this.gauge(
      'http_requests_in_flight',
      'GraphQL requests over HTTP started and not answered yet (HTTP_MAX_REQUESTS_IN_FLIGHT).',
      () => admission.inFlight,
    );
  }

  private gaugePostgresPool(dataSource: DataSource): void {
    if (dataSource.options.type !== 'postgres') return;
    const pool = () => (dataSource.driver as unknown as { master?: PgPool }).master;
    // No reading until the pool exists.
    const gauge = (name: string, help: string, read: (pool: PgPool) => number) =>
      this.gauge(name, help, () => {
        const current = pool();
        return current ? read(current) : undefined;
      });
    gauge(
      'db_pool_connections',
      'PostgreSQL connections in the pool, busy or idle.',
      (p) => p.totalCount,
    );
    gauge(
      'db_pool_connections_idle',
      'Idle PostgreSQL connections in the pool.',
      (p) => p.idleCount,
    );
    gauge(
      'db_pool_requests_waiting',
      'Queries waiting for a PostgreSQL connection from the pool.',
      (p) => p.waitingCount,
    );
  }

  /** A gauge read at each scrape; `read` answering undefined leaves it as it was. */
  private gauge(name: string, help: string, read: () => number | undefined): void {
    new Gauge({
      name,
      help,
      registers: [this.registry],
      collect() {
        const value = read();
        if (value !== undefined) this.set(value);
      },
    });
  }
}

/** The operation names of the trusted documents: the service's own clients' names. */
function operationNamesOf(documents: string[]): string[] {
  const names: string[] = [];
  for (const text of documents) {
    try {
      for (const definition of parse(text).definitions) {
        if (definition.kind === Kind.OPERATION_DEFINITION && definition.name) {
          names.push(definition.name.value);
        }
      }
    } catch {
      // A document that does not parse names no operation.
    }
  }
  return names;
}
