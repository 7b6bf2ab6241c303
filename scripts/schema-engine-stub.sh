#!/bin/sh
# Placeholder for Prisma's Rust schema-engine binary, which cannot be downloaded on our machines.
# `prisma generate` only checks that this file exists. Migrations run through the wasm engine:
# use `npm run db:migrate:*` (scripts/db.ts), never `prisma migrate`.
echo "Switchyard: the Rust schema engine is not installed; use npm run db:migrate:deploy|status|create" >&2
exit 1
