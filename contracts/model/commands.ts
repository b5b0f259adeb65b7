/**
 * The command arbitrary of a model-based run: every command over the account slots, tabs and browsers of
 * contracts/model/model.ts. Without /__mock, the commands that need it (the right code, the clock, a resend) are not
 * generated.
 */
import fc from 'fast-check'
import type { AsyncCommand } from 'fast-check'
import { SendCode, SignIn, SignUp, Verify } from '#contracts/model/account-commands.ts'
import { ACCOUNT_SLOTS, TABS, type Model } from '#contracts/model/model.ts'
import { AdvanceClock, Duplicate, ReadSession } from '#contracts/model/browser-commands.ts'
import { GetMe, LogOut, Refresh } from '#contracts/model/session-commands.ts'
import type { World } from '#contracts/model/world.ts'

/**
 * Clock moves: inside the grace window, past it but inside the code cooldown, past the cooldown, and past the access
 * token's lifetime, the code's and the lock-out's. None reaches a refresh family's 24 h lifetime in a run.
 */
export const CLOCK_STEPS_MS = [2_000, 20_000, 307_000, 960_000] as const

/** The longest command sequence of a run. */
export const MAX_COMMANDS = 50

export function commandsArbitrary(control: boolean, replayPath?: string, codes = control) {
  const slot = fc.nat({ max: ACCOUNT_SLOTS - 1 })
  const tab = fc.nat({ max: TABS - 1 })
  // A pick chooses among the candidates a command has when it runs (the tabs holding a token, say), so a
  // generated command rarely finds nothing to act on. Repeated entries weigh the commands that build sessions.
  const pick = fc.nat({ max: 7 })
  const list: fc.Arbitrary<AsyncCommand<Model, World>>[] = [
    slot.map((s) => new SignUp(s)),
    fc.tuple(slot, tab).map(([s, t]) => new Verify(s, t, false)),
    fc.tuple(slot, tab, fc.boolean()).map(([s, t, right]) => new SignIn(s, t, right)),
    pick.map((p) => new Refresh(p)),
    pick.map((p) => new Refresh(p)),
    pick.map((p) => new Refresh(p)),
    fc.tuple(pick, fc.nat({ max: 3 })).map(([p, retired]) => new Refresh(p, retired)),
    fc.tuple(pick, fc.nat({ max: 3 })).map(([p, retired]) => new Refresh(p, retired)),
    pick.map((p) => new GetMe(p)),
    pick.map((p) => new GetMe(p)),
    pick.map((p) => new LogOut(p)),
    pick.map((p) => new ReadSession(p)),
    fc.tuple(pick, tab).map(([p, to]) => new Duplicate(p, to)),
  ]
  // Without /__mock the clock stands still, so a resend always falls in its sign-up's cooldown, and the suite's
  // guard for targets without a reset (contracts/support/target-limit.ts) reads a first 429 as a refusal of all.
  if (codes)
    list.push(
      fc.tuple(pick, tab).map(([p, t]) => new Verify(p, t, true)),
      fc.tuple(pick, tab).map(([p, t]) => new Verify(p, t, true)),
    )
  if (control)
    list.push(
      pick.map((p) => new SendCode(p)),
      fc.constantFrom(...CLOCK_STEPS_MS).map((ms) => new AdvanceClock(ms)),
    )
  return fc.commands(list, { maxCommands: MAX_COMMANDS, size: 'max', ...(replayPath && { replayPath }) })
}
