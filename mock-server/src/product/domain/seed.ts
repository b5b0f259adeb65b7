// The seeded demo accounts (listed in the README). Their passwords are demo values, not secrets.
import type { DomainContext } from './context.ts'
import { createUser } from './users.ts'

export const SEED_ACCOUNTS = [
  { email: 'ada@example.com', name: 'Ada Lovelace', password: 'analytical-engine-1843', verified: true },
  { email: 'grace@example.com', name: 'Grace Hopper', password: 'compiler-pioneer-1952', verified: true },
  { email: 'alan@example.com', name: 'Alan Turing', password: 'imitation-game-1950', verified: false },
] as const

export async function seedAccounts(ctx: DomainContext): Promise<void> {
  for (const { password, ...account } of SEED_ACCOUNTS)
    await createUser(ctx, { ...account, passwordHash: await ctx.hasher.hashPublished(password) })
}
