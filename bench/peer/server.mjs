/**
 * The "original stack" peer for the benchmarks (issue 5, item 3): the product list of the seed's
 * API as a NestJS team would have written it, with TypeORM and nestjs-paginate, here on SQLite.
 *
 *   npm ci --prefix bench/peer
 *   node bench/peer/server.mjs --db <copy of the local D1 .sqlite file> [--port 3100] [--host 127.0.0.1]
 *
 * GET /health                  -> {"status":"ok"}
 * GET /v1/api/product          -> nestjs-paginate's paginate() with the config below (data/meta/links)
 * GET /v1/api/product/:code    -> one product by code (TypeORM findOneBy), 404 if unknown
 *
 * --log-sql prints every SQL statement TypeORM runs (for inspection, not for benchmarking).
 *
 * Plain JavaScript: the decorators are applied with Reflect.decorate exactly as `tsc` (with
 * experimentalDecorators and emitDecoratorMetadata) compiles a TypeScript NestJS app, so the
 * code that runs is what such an app runs, without a build step. Read-only: the database is
 * never synchronised or migrated. No auth guard, no request logging.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { parseArgs } from "node:util";

// The peer's own node_modules (bench/peer/package.json), loaded by name so that the main
// project's type check does not reach into them: everything from there is `any` here.
const load = createRequire(import.meta.url);
/** @param {string} name @returns {any} */
const dep = (name) => load(name);
dep("reflect-metadata");
/** @type {any} Reflect with reflect-metadata's decorate/metadata */
const Reflection = Reflect;
const { Controller, Get, Inject, Module, NotFoundException, Param } = dep("@nestjs/common");
const { NestFactory } = dep("@nestjs/core");
const { TypeOrmModule, getRepositoryToken } = dep("@nestjs/typeorm");
const { Column, DataSource, Entity, PrimaryGeneratedColumn, Repository } = dep("typeorm");
const { Paginate, paginate } = dep("nestjs-paginate");

const { values: args } = parseArgs({
  options: {
    db: { type: "string" },
    port: { type: "string", default: "3100" },
    host: { type: "string", default: "127.0.0.1" },
    "log-sql": { type: "boolean", default: false },
  },
});
if (!args.db) {
  console.error(
    "usage: node bench/peer/server.mjs --db <sqlite file> [--port 3100] [--host 127.0.0.1] [--log-sql]",
  );
  process.exit(2);
}
const database = resolve(args.db);
if (!existsSync(database)) {
  console.error(`peer: no such database file: ${database}`);
  process.exit(2);
}

// What `tsc` emits for decorators (tslib's __decorate/__param/__metadata).
/** @param {any[]} decorators @param {object} target @param {string} [key] */
const decorate = (decorators, target, key) =>
  Reflection.decorate(
    decorators,
    target,
    key,
    key === undefined ? undefined : (Object.getOwnPropertyDescriptor(target, key) ?? undefined),
  );
/** @param {number} index @param {any} decorator */
const param = (index, decorator) => (/** @type {object} */ target, /** @type {string} */ key) =>
  decorator(target, key, index);
/** @param {Function} t */
const type = (t) => Reflection.metadata("design:type", t);

/** Instants are integer epoch ms in the D1 schema; the API shows ISO strings (as ours does). */
const epochMs = {
  from: (/** @type {number | null} */ value) =>
    value == null ? value : new Date(value).toISOString(),
  to: (/** @type {unknown} */ value) => value,
};

// ---- entity -------------------------------------------------------------------------------
// @Entity("products") export class Product { @PrimaryGeneratedColumn() id: number; ... }
class Product {}
decorate([PrimaryGeneratedColumn(), type(Number)], Product.prototype, "id");
decorate([Column({ type: "text", unique: true }), type(String)], Product.prototype, "code");
decorate([Column({ type: "text" }), type(String)], Product.prototype, "name");
decorate(
  [Column({ name: "created_at", type: "integer", transformer: epochMs }), type(String)],
  Product.prototype,
  "createdAt",
);
decorate(
  [Column({ name: "updated_at", type: "integer", transformer: epochMs }), type(String)],
  Product.prototype,
  "updatedAt",
);
decorate([Entity("products")], Product);

// ---- pagination config: what a NestJS team writes for the bench's list and search ---------
/** nestjs-paginate's `PaginateConfig<Product>` */
export const PRODUCT_PAGINATION_CONFIG = {
  sortableColumns: ["id", "name"],
  searchableColumns: ["code", "name"],
  select: ["id", "code", "name", "createdAt", "updatedAt"],
  defaultSortBy: [["id", "DESC"]],
  defaultLimit: 20,
  maxLimit: 100,
};

// ---- controller ---------------------------------------------------------------------------
class ProductController {
  /** @param {any} productRepository TypeORM's Repository<Product> */
  constructor(productRepository) {
    this.productRepository = productRepository;
  }

  // @Get() findAll(@Paginate() query: PaginateQuery): Promise<Paginated<Product>>
  /** @param {any} query nestjs-paginate's PaginateQuery */
  findAll(query) {
    return paginate(query, this.productRepository, PRODUCT_PAGINATION_CONFIG);
  }

  // @Get(":code") async findOne(@Param("code") code: string): Promise<Product>
  /** @param {string} code */
  async findOne(code) {
    const product = await this.productRepository.findOneBy({ code });
    if (!product) throw new NotFoundException(`product ${code} not found`);
    return product;
  }
}
decorate([Get(), param(0, Paginate())], ProductController.prototype, "findAll");
decorate([Get(":code"), param(0, Param("code"))], ProductController.prototype, "findOne");
decorate(
  [
    Controller("v1/api/product"),
    param(0, Inject(getRepositoryToken(Product))), // @InjectRepository(Product)
    Reflection.metadata("design:paramtypes", [Repository]),
  ],
  ProductController,
);

class HealthController {
  check() {
    return { status: "ok" };
  }
}
decorate([Get()], HealthController.prototype, "check");
decorate([Controller("health")], HealthController);

// ---- modules ------------------------------------------------------------------------------
class ProductModule {}
decorate(
  [Module({ imports: [TypeOrmModule.forFeature([Product])], controllers: [ProductController] })],
  ProductModule,
);

class AppModule {}
decorate(
  [
    Module({
      imports: [
        TypeOrmModule.forRoot({
          type: "better-sqlite3",
          database,
          fileMustExist: true,
          entities: [Product],
          synchronize: false,
          migrationsRun: false,
          logging: args["log-sql"] ? ["query"] : false,
        }),
        ProductModule,
      ],
      controllers: [HealthController],
    }),
  ],
  AppModule,
);

const app = await NestFactory.create(AppModule, { logger: ["error", "warn"] });
try {
  await app.get(DataSource).query("select 1 from products limit 1");
} catch (err) {
  console.error(
    `peer: ${database} has no readable products table (${err instanceof Error ? err.message : String(err)}).\n` +
      "Copy the D1 database with `node bench/peer/copy-db.mjs --persist-to <dir> --out <file>`: " +
      "Miniflare keeps most of the data in the -wal file, so copying the .sqlite file alone is not enough.",
  );
  await app.close();
  process.exit(1);
}
app.enableShutdownHooks();
await app.listen(Number(args.port), args.host);
console.log(`peer listening on http://${args.host}:${args.port} (db ${database})`);
