// The words of the review (复盘) and 我的对局 pages: 简体中文 first, English second. Kept apart
// from ../i18n.ts so that these pages can change without touching the table's text.
import type { Lang } from "../i18n";

const TEXT: Record<string, [string, string]> = {
  "nav.review": ["复盘", "Review"],
  "nav.mine": ["我的对局", "My games"],
  "review.title": ["复盘", "Review"],
  "review.intro": [
    "逐个查看一位玩家的每个决策：实际的选择、强机器人的选择和各选项的估值。",
    "Every decision of one player, one by one: the choice made, the strong bot's choice and the value of each candidate.",
  ],
  "review.file": ["上传记录文件（.jsonl）", "Upload a record (.jsonl)"],
  "review.paste": ["或粘贴记录", "or paste a record"],
  "review.paste.go": ["载入粘贴的记录", "Load the pasted record"],
  "review.seat": ["复盘哪一位", "Whose decisions"],
  "review.start": ["开始复盘", "Review"],
  "review.working": [
    "复盘中……强机器人正在为每个决策估值（麻将一整场约需几秒到半分钟，青儿用蒙特卡洛模拟，每局几秒）",
    "Reviewing: the strong bot values every decision (a whole mahjong match takes a few seconds to half a minute; Qing'er samples by Monte Carlo, a few seconds a hand)",
  ],
  "review.progress": ["复盘进度", "Review progress"],
  "review.error": ["无法复盘：{m}", "Cannot review: {m}"],
  "review.busy": ["服务器正在做另一次复盘，请稍后再试", "The server is busy with another review; try again in a moment"],
  "review.retry": ["再试一次", "Try again"],
  "review.badfile": ["这不是牌局记录（第一行应为记录头）", "This is not a paiju record (line 1 must be its header)"],
  "review.summary": [
    "{who}：{hands}，{n}，与强机器人一致 {agree}，共损失 {lost} 分（每局 {per}）",
    "{who}: {hands}, {n}, {agree} agree with the strong bot, {lost} points given up ({per} a hand)",
  ],
  "review.worst": ["损失最大的决策", "Costliest decisions"],
  "review.noworst": ["没有损失分数的决策", "No decision gave up points"],
  "review.at": ["第 {hand} 局第 {turn} 手", "hand {hand}, turn {turn}"],
  "review.step": ["第 {i} / {n} 个决策", "Decision {i} / {n}"],
  "review.first": ["第一个", "First"],
  "review.prev": ["上一个", "Back"],
  "review.next": ["下一个", "Next"],
  "review.last": ["最后一个", "Last"],
  "review.prevmistake": ["上一个失误", "Previous mistake"],
  "review.nextmistake": ["下一个失误", "Next mistake"],
  "review.keys": [
    "键盘：←/→ 上一个/下一个，↑/↓ 上一个/下一个失误，Home/End 第一个/最后一个；手机上左右滑动。",
    "Keys: ←/→ back/next, ↑/↓ previous/next mistake, Home/End first/last; on a phone, swipe sideways.",
  ],
  "review.played": ["实际", "Played"],
  "review.bot": ["强机器人", "Strong bot"],
  "review.agree": ["与机器人一致", "Same as the bot"],
  "review.near": ["与机器人不同，但差距在容差之内", "Not the bot's choice, but within the tolerance"],
  "review.cost": ["损失 {v} 分", "Gave up {v} points"],
  "review.candidates": ["候选", "Candidates"],
  "review.col.action": ["选项", "Choice"],
  "review.col.points": ["期望得分", "Expected points"],
  "review.col.win": ["和牌率", "Win chance"],
  "review.col.dealin": ["放铳率", "Deal-in chance"],
  "review.search": ["估值方法：{s}", "Valued by: {s}"],
  "review.search.lookahead": ["前瞻搜索", "lookahead"],
  "review.search.montecarlo": ["蒙特卡洛模拟", "Monte Carlo"],
  "review.search.greedy": ["向听与牌效", "shanten and tile efficiency"],
  "review.search.forced": ["只有一种合理选择", "one sensible choice"],
  "review.search.rule": ["规则（能和则和）", "a rule (win when you can)"],
  "review.timeline": ["所有决策（颜色表示损失大小）", "Every decision (the colour says how much it gave up)"],
  "review.sev.ok": ["一致", "agrees"],
  "review.sev.near": ["容差内", "within tolerance"],
  "review.sev.small": ["小失误（< {a} 分）", "small (< {a} points)"],
  "review.sev.medium": ["失误（{a}–{b} 分）", "mistake ({a}–{b} points)"],
  "review.sev.large": ["大失误（≥ {b} 分）", "big mistake (≥ {b} points)"],
  "review.hand": ["手牌（牌下是机器人给的期望得分）", "Hand (under each tile: the bot's expected points for discarding it)"],
  "review.back": ["回到对局列表", "Back to the games"],
  "review.replay": ["回放这一局", "Replay this game"],
  "review.other": ["换一位玩家", "Another player"],
  "review.none": ["这一位在这份记录里没有需要选择的决策", "This player had no decision with a choice in this record"],
  "review.you": ["（你）", " (you)"],
  "review.link": ["复盘", "Review"],
  "mine.title": ["我的对局", "My games"],
  "mine.intro": [
    "按这个浏览器保存的座位凭证找到你在本服务器上的对局（没有账号，别人看不到）。",
    "Your games on this server, found by the seat tokens this browser kept (there are no accounts; nobody else sees them).",
  ],
  "mine.none": ["这个浏览器还没有坐下玩过的对局", "This browser has not sat down at any game yet"],
  "mine.loading": ["正在读取……", "Loading…"],
  "mine.error": ["读取失败：{m}", "Could not load: {m}"],
  "mine.all": ["全部", "All games"],
  "mine.matches": ["场次", "Matches"],
  "mine.hands": ["局数", "Hands"],
  "mine.winrate": ["和牌率", "Win rate"],
  "mine.selfdraw": ["自摸占比", "Self-drawn share"],
  "mine.dealin": ["放铳率", "Deal-in rate"],
  "mine.pph": ["每局得分", "Points a hand"],
  "mine.agreement": ["与强机器人一致率", "Agreement with the strong bot"],
  "mine.agreement.of": ["{p}（已复盘 {n}）", "{p} ({n} reviewed)"],
  "mine.agreement.none": ["尚未复盘（在对局旁点“复盘”）", "none reviewed yet (press Review beside a game)"],
  "mine.agreement.computing": ["计算中……", "being computed…"],
  "mine.items": ["和过的番种", "Scoring items of your wins"],
  "mine.chart": ["每场得分与累计", "Points by match, and the running total"],
  "mine.chart.label": ["{v}：{n}的得分，柱为每场，折线为累计", "{v}: points of {n}, bars per match, line the running total"],
  "mine.games": ["对局列表", "Games"],
  "mine.status.playing": ["进行中", "being played"],
  "mine.status.finished": ["已结束", "finished"],
  "mine.status.broken": ["已损坏", "broken"],
  "mine.status.abandoned": ["已放弃", "abandoned"],
  "mine.seat": ["{n} 号位", "seat {n}"],
  "mine.total": ["得分 {v}", "{v} points"],
  "mine.reviewed": ["一致率 {p}", "agreement {p}"],
  "mine.reviewing": ["一致率计算中（{p}）", "agreement being computed ({p})"],
  "mine.review.waiting": ["一致率稍后计算", "agreement to be computed later"],
  "mine.review.failed": ["这一场无法复盘", "this game cannot be reviewed"],
  "mine.agreement.pending": ["（另有 {n} 场计算中）", " ({n} more being computed)"],
  "mine.more": ["只显示最近的 100 场", "Only the newest 100 matches are shown"],
  "mine.after": ["你的战绩", "Your record"],
  "mine.after.line": [
    "{m} {h}，和牌率 {w}，放铳率 {d}，每局 {p} 分",
    "{m}, {h}, win rate {w}, deal-in rate {d}, {p} points a hand",
  ],
  // counts: English says "1 match" but "2 matches" (see count())
  "count.match": ["{n} 场", "{n} match"],
  "count.matches": ["{n} 场", "{n} matches"],
  "count.hand": ["{n} 局", "{n} hand"],
  "count.hands": ["{n} 局", "{n} hands"],
  "count.decision": ["{n} 个决策", "{n} decision"],
  "count.decisions": ["{n} 个决策", "{n} decisions"],
  // punctuation between a label and what follows, and between list items: full-width in
  // Chinese, ASCII in English
  colon: ["：", ": "],
  "list.sep": ["、", ", "],
};

export function rt(lang: Lang, key: string, values?: Record<string, string | number>): string {
  const pair = TEXT[key];
  let s = pair ? pair[lang === "en" ? 1 : 0] : key;
  if (values) for (const [k, v] of Object.entries(values)) s = s.split(`{${k}}`).join(String(v));
  return s;
}

/** ``n`` of ``noun`` (match, hand, decision) in ``lang``, singular for one in English. */
export function count(lang: Lang, noun: "match" | "hand" | "decision", n: number): string {
  const plural = { match: "matches", hand: "hands", decision: "decisions" }[noun];
  return rt(lang, `count.${n === 1 ? noun : plural}`, { n });
}

/** Every key of these pages' text (the tests check each English string's punctuation). */
export function reviewTextKeys(): string[] {
  return Object.keys(TEXT);
}

export function hasReviewText(key: string): boolean {
  return key in TEXT;
}
