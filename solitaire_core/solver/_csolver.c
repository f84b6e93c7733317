/* The solver's compiled core: the search of solitaire_core.solver, in C.
 *
 * The same algorithm as the pure-Python engine (engine.py, heuristic.py, deadends.py,
 * search.py): best-first search, newest first among equal scores, a transposition table of
 * positions keyed with columns and cells as multisets, the variant's autoplay after every
 * move, and the reductions of docs/solver.md (go home, freeze, King home, dead suits). It
 * knows no variant: solitaire_core/solver/native.py compiles the Rules into the tables
 * passed in (can_build, empty_ok) and decides which variants it may run.
 *
 * What is different from the Python engine, and why it does not change a verdict:
 *   - The search works on the canonical form of a position itself (columns and cells
 *     sorted), where the Python engine keeps the real order and sorts only the key. Every
 *     value stands for one card or for interchangeable twins, so autoplay and every move
 *     commute with reordering the piles; a won line is translated back to the real piles at
 *     the end (translate()), by finding, from the real position, the move whose child has
 *     the next position's key.
 *   - A stored position is its key only: the cards in play, 6 bits each, column by column
 *     (a card built on the one below it by the variant's only such build: 1 bit), then
 *     the cells. The classic foundations follow from which cards are in play; the
 *     variant's own piles (Game.general) add each pile's length, first and top card.
 *   - Where the session's autoplay order decides which card goes up (general foundations,
 *     several decks with autoplay "all": Game.order), positions are expanded in their real
 *     column and cell order, stored beside the key, and autoplay follows the session's
 *     order, exactly as the Python engine does.
 *
 * Memory: every byte the search allocates is counted (Acc below); a budget in bytes is
 * never exceeded (an allocation that would pass it stops the search: "memory budget").
 * Memory comes from PyMem_Raw*, so tracemalloc sees it too.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#ifdef _WIN32
#include <windows.h>
#endif

#define MAXCOLS 24
#define MAXCELLS 16
#define MAXV 52
#define FULL52 ((1ull << 52) - 1)
#define MAXLEN 160
#define MAXCOPIES 3
#define MAXPILES 16
#define EMPTY 255
#define BIG 1000000000L
#define SUB_CAP 5000
#define CACHE_LIMIT 200000
#define MAXKEY 255

enum { TT, TC, CT, TF, CF };
enum { LIM_ONE, LIM_FCPO, LIM_SUPER, LIM_UNLIM };
enum { AUTO_OFF, AUTO_SAFE, AUTO_ALL };
enum { W_LEFT, W_DEPTH, W_CELLS, W_EMPTY, W_BLOCK, W_UNSETTLED, W_HOMELESS, W_LOOSE, W_NOISE, W_CROWD, NWEIGHTS };
enum {
    ST_WON, ST_UNWINNABLE, ST_STATES, ST_TIME, ST_CANCELLED, ST_MEMORY, ST_TRANSLATE,
    ST_ERROR, ST_RUNNING
};
static const char *STATUS_NAMES[] = {
    "won", "unwinnable", "state budget", "time budget", "cancelled", "memory budget",
    "translation failed", "error", "running"};

/* ---- the variant --------------------------------------------------------------------- */

typedef struct {
    int ncols, ncells, copies, total, nv;
    int limit, policy;
    int whole_runs, whole_runs_empty, go_home, king_home, canonical, suit_check;
    /* leave_check: the leave-order dead-end test (deadends.py LeaveOrder); lower[v]: the
       cards of v's suit below it, parent_mask[v]: the cards v may be built on, fpred[v]: the
       cards v may follow on some general foundation pile. */
    int leave_check;
    /* send_up: a card whose sending up loses nothing is sent up as the only move
       (engine.py Engine.send_up, docs/solver.md item 10). */
    int send_up;
    /* seed: with w[W_NOISE] > 0, each new position's score gets 0..w[W_NOISE] more, a hash
       of its key and the seed (heuristic.py's noise term: a restart that searches
       otherwise tied positions in another order). */
    uint64_t seed;
    /* present: the values some card is (tables.py Tables.classes: where suits share a
       value, the other kinds of a class are holes, which hold no card and count as up). */
    uint64_t present;
    uint64_t lower[MAXV], parent_mask[MAXV], fpred[MAXV];
    /* The same relations read backwards, for stranded's work list: higher[v], the cards
       with v in lower[]; child_mask[v], the cards that may be built on v; fsucc[v], the
       cards with v in fpred[]; empty_mask, the cards that may fill an empty column. */
    uint64_t higher[MAXV], child_mask[MAXV], fsucc[MAXV], empty_mask;
    /* receive: the cells take cards (0: a reserve, cards only leave it). general: the
       variant's own foundation piles (below), not one pile per suit and deck. complete:
       only complete suits go up. order: positions keep their real column and cell order
       (stored beside the key, `extra` bytes) and autoplay follows the session's order.
       aces_free: safe autoplay counts no Ace as wanting a place (Rules.aces_need_no_place;
       classic foundations only). */
    int receive, general, complete, order, extra, extra_bits, aces_free;
    long frozen;
    int w[NWEIGHTS];
    uint8_t can_build[MAXV][MAXV];
    uint8_t parents[MAXV][MAXV];
    uint8_t nparents[MAXV];
    uint8_t children[MAXV][MAXV];
    uint8_t nchildren[MAXV];
    uint8_t empty_ok[MAXV];
    uint8_t can_run[MAXV][MAXV];
    /* General foundations (engine.py _init_piles): per pile its most cards, the kinds it
       starts with, whether it builds in suit (and the piles of its group), and the kinds
       that may go on each kind. */
    int npiles, suit_full;
    /* foundations.base_rank = "first-played": an empty pile takes any rank until a card is
       on some pile, then that card's rank; autoplay waits for the player's first card. */
    int first_played;
    int pile_cap[MAXPILES], pile_in_suit[MAXPILES];
    uint32_t pile_group[MAXPILES];
    /* pile_alike[i]: the piles pile_choices may take for pile i (bit j for pile j;
       engine.py Engine.pile_alike). */
    uint32_t pile_alike[MAXPILES];
    /* pile_run_end[i]: where the run of neighbouring piles alike that pile i belongs to
       ends (engine.py Engine.pile_classes; i + 1 when alone). */
    int pile_run_end[MAXPILES];
    uint64_t pile_start[MAXPILES];
    uint64_t pile_next[MAXPILES][MAXV];
    /* What the key stores for a pile's first and top card (pile_reps): the least value
       that tells as much. A top card matters only through the cards it takes next (its
       pile_next row), a first card only through its rank, and its suit where the pile
       builds in suit; so piles that differ in nothing a later move sees have one key. */
    uint8_t rep_first[MAXPILES][MAXV], rep_top[MAXPILES][MAXV];
    /* The key stores a card built on the card y below it (one of y's children) as 1 and
       its index among them in child_bits[y] bits (none when y has one child, 1 for
       FreeCell's two cards of the other colour); child_index[y][x]: x's index among y's
       children, or EMPTY. code[y][x]: the code of x on y, its bits (at most 7) in the low
       byte, their number in the high one. */
    uint8_t child_bits[MAXV];
    uint8_t child_index[MAXV][MAXV];
    uint16_t code[MAXV][MAXV];
    /* The start position's columns (in card kinds): a column that begins as one of them
       is keyed by its number and how many of its cards it still holds (ref_bits and
       len_bits bits), when that is shorter than its cards. ref_first[v]: the columns that
       begin with kind v (nref_first[v] of them). */
    int ref_bits, len_bits;
    uint8_t ref_len[MAXCOLS];
    uint8_t ref[MAXCOLS][MAXLEN + 8];
    /* plain[r][m]: the bits of column r's first m cards coded card by card. */
    uint16_t plain[MAXCOLS][MAXLEN + 1];
    /* refmask[r][m]: the cards of column r's first m cards, one bit per kind (one deck). */
    uint64_t refmask[MAXCOLS][MAXLEN + 1];
    uint8_t nref_first[MAXV];
    uint8_t ref_first[MAXV][MAXCOLS];
    int score_lo, score_hi;
} Game;

/* A position. Values are card kinds (suit * 13 + rank - 1); fh holds the foundation
   heights of each suit, one per deck. */
typedef struct {
    uint8_t n[MAXCOLS];
    uint8_t cells[MAXCELLS];
    uint8_t fh[4][MAXCOPIES];
    uint64_t need;
    /* General foundations: each pile's length, first and top card, and how many cards of
       each value are up (what a pile can take next depends on nothing else). */
    uint8_t fn[MAXPILES], ffirst[MAXPILES], ftop[MAXPILES];
    uint8_t upc[MAXV];
    uint8_t c[MAXCOLS][MAXLEN + 8]; /* 8 bytes to spare: common_prefix reads past n */
} Pos;

typedef struct {
    int go_home, king_home, whole_runs, whole_runs_empty;
    long frozen;
    int send_up; /* Game.send_up (sent_up_pile) */
} Flags;

static void pos_copy(const Game *g, Pos *dst, const Pos *src) {
    memcpy(dst->n, src->n, sizeof dst->n);
    memcpy(dst->cells, src->cells, sizeof dst->cells);
    memcpy(dst->fh, src->fh, sizeof dst->fh);
    dst->need = src->need;
    if (g->general) {
        memcpy(dst->fn, src->fn, sizeof dst->fn);
        memcpy(dst->ffirst, src->ffirst, sizeof dst->ffirst);
        memcpy(dst->ftop, src->ftop, sizeof dst->ftop);
        memcpy(dst->upc, src->upc, sizeof dst->upc);
    }
    /* Short columns as one fixed 16-byte copy (a row has MAXLEN + 8 bytes), which the
       compiler inlines, rather than a call to memcpy per column. */
    for (int i = 0; i < g->ncols; i++) {
        int n = src->n[i];
        if (n <= 16)
            memcpy(dst->c[i], src->c[i], 16);
        else
            memcpy(dst->c[i], src->c[i], (size_t)n);
    }
}

static void suit_need(const Game *g, Pos *p, int s) {
    p->need &= ~(((uint64_t)0x1FFF) << (13 * s));
    for (int i = 0; i < g->copies; i++)
        if (p->fh[s][i] < 13) p->need |= (uint64_t)1 << (13 * s + p->fh[s][i]);
}

/* The kinds general pile i takes now (engine.py pile_mask). */
static uint64_t pile_mask(const Game *g, const Pos *p, int i) {
    if (p->fn[i]) {
        if (p->fn[i] >= g->pile_cap[i]) return 0;
        return g->pile_next[i][p->ftop[i]];
    }
    uint64_t mask = g->pile_start[i];
    if (g->first_played)
        for (int j = 0; j < g->npiles; j++)
            if (p->fn[j]) {
                /* that rank in every suit (but holes) */
                mask = (0x8004002001ull << (p->ffirst[j] % 13)) & g->present;
                break;
            }
    if (g->pile_in_suit[i])
        for (int s = 0; s < 4; s++) {
            int started = 0;
            for (int j = 0; j < g->npiles; j++)
                if ((g->pile_group[i] >> j & 1) && p->fn[j] && p->ffirst[j] / 13 == s) started++;
            if (started * g->pile_cap[i] >= g->suit_full) mask &= ~(((uint64_t)0x1FFF) << (13 * s));
        }
    return mask;
}

static void general_need(const Game *g, Pos *p) {
    uint64_t need = 0;
    for (int i = 0; i < g->npiles; i++) need |= pile_mask(g, p, i);
    p->need = need;
}

/* The first general pile that takes v (which fits). */
static int pile_for(const Game *g, const Pos *p, int v) {
    for (int i = 0; i < g->npiles; i++)
        if (pile_mask(g, p, i) >> v & 1) return i;
    return -1;
}

/* The piles a player may put v (which fits) on, first to last, in out; their count. A pile
   is left out when an earlier one is alike (Game.pile_alike: the same run of neighbouring
   piles alike, or with autoplay off any pile alike), holds as many cards and takes the
   same cards now: the two choices differ in nothing a later move sees (engine.py
   pile_choices). */
static int pile_choices(const Game *g, const Pos *p, int v, int *out) {
    uint64_t masks[MAXPILES];
    int n = 0;
    for (int i = 0; i < g->npiles; i++) {
        uint64_t m = pile_mask(g, p, i);
        masks[i] = m;
        if (!(m >> v & 1)) continue;
        int same = 0;
        for (int q = 0; q < n && !same; q++) {
            int j = out[q];
            same = (g->pile_alike[i] >> j & 1) && p->fn[i] == p->fn[j] && masks[j] == m;
        }
        if (!same) out[n++] = i;
    }
    return n;
}

/* Put v on general pile i (which takes it). */
static void put_on(const Game *g, Pos *p, int i, int v) {
    if (!p->fn[i]) p->ffirst[i] = (uint8_t)v;
    p->ftop[i] = (uint8_t)v;
    p->fn[i]++;
    p->upc[v]++;
    general_need(g, p);
}

/* Put v on the first general pile that takes it (autoplay's choice, as the session's). */
static void put_general(const Game *g, Pos *p, int v) {
    int i = pile_for(g, p, v);
    if (i >= 0) put_on(g, p, i, v); /* callers check need */
}

static void put(const Game *g, Pos *p, int v) {
    if (g->general) {
        put_general(g, p, v);
        return;
    }
    int s = v / 13, r = v % 13;
    for (int i = 0; i < g->copies; i++)
        if (p->fh[s][i] == r) {
            p->fh[s][i]++;
            break;
        }
    suit_need(g, p, s);
}

/* Whether every copy of value x is on a foundation (none in play). */
static int all_up(const Game *g, const Pos *p, int x) {
    if (g->general) return p->upc[x] >= g->copies;
    int s = x / 13, r = x % 13;
    for (int i = 0; i < g->copies; i++)
        if (p->fh[s][i] <= r) return 0;
    return 1;
}

/* engine.py copies_have_places: as many piles take v now as copies of it are still to go
   up (several decks: the copies compete for the piles of their suit). */
static int copies_have_places(const Game *g, const Pos *p, int v) {
    if (g->general) {
        int taking = 0;
        for (int i = 0; i < g->npiles; i++) taking += (int)(pile_mask(g, p, i) >> v & 1);
        return taking >= g->copies - p->upc[v];
    }
    int s = v / 13, r = v % 13;
    for (int i = 0; i < g->copies; i++)
        if (p->fh[s][i] < r) return 0;
    return 1;
}

/* The core's is_safe_to_foundation: no card in play may be built on v. */
static int safe(const Game *g, const Pos *p, int v) {
    if (g->copies > 1 && !copies_have_places(g, p, v)) return 0;
    if (g->general) {
        int i = pile_for(g, p, v);
        if (i < 0 || !g->pile_in_suit[i]) return 0;
    }
    for (int i = 0; i < g->nchildren[v]; i++) {
        int x = g->children[v][i];
        if (g->aces_free && x % 13 == 0) continue; /* an Ace always goes up instead */
        if (!all_up(g, p, x)) return 0;
    }
    return 1;
}

#define NEEDS(p, v) (((p)->need >> (v)) & 1)

/* Whether the 13 cards from c (bottom first) are a complete suit from the King down. */
static int is_suit(const uint8_t *c) {
    int top = c[0];
    if (top % 13 != 12) return 0;
    for (int j = 1; j < 13; j++)
        if (c[j] != top - j) return 0;
    return 1;
}

/* engine.py safe_run: no card in play outside the suit on top of column i may be built on
   any of its cards. */
static int safe_run(const Game *g, const Pos *p, int i) {
    uint8_t in_run[MAXV] = {0};
    const uint8_t *run = p->c[i] + p->n[i] - 13;
    for (int k = 0; k < 13; k++) in_run[run[k]] = 1;
    for (int k = 0; k < 13; k++) {
        int v = run[k];
        for (int q = 0; q < g->nchildren[v]; q++) {
            int x = g->children[v][q];
            if (g->aces_free && x % 13 == 0) continue;
            if (in_run[x] && g->copies == 1) continue;
            /* x is in play outside the run when more copies are in play than the run holds */
            int inplay = g->copies - (g->general ? p->upc[x] : 0) - (in_run[x] ? 1 : 0);
            if (inplay > 0) return 0;
        }
    }
    return 1;
}

/* Put the complete suit on top of column i on general pile `pile`, or with pile < 0 on the
   first that takes it. */
static void put_run(const Game *g, Pos *p, int i, int pile) {
    const uint8_t *run = p->c[i] + p->n[i] - 13;
    if (pile < 0) pile = pile_for(g, p, run[12]);
    if (pile < 0) return;
    if (!p->fn[pile]) p->ffirst[pile] = run[12];
    p->ftop[pile] = run[0];
    p->fn[pile] += 13;
    for (int k = 0; k < 13; k++) p->upc[run[k]]++;
    p->n[i] -= 13;
    general_need(g, p);
}

/* Autoplay in the session's order (rules.autoplay_moves): columns from the first, then
   cells; after each card (or complete suit), start again. */
static void autoplay_in_order(const Game *g, Pos *p) {
    int all = g->policy == AUTO_ALL;
again:
    if (g->complete) {
        for (int i = 0; i < g->ncols; i++) {
            int n = p->n[i];
            if (n >= 13 && NEEDS(p, p->c[i][n - 1]) && is_suit(p->c[i] + n - 13) &&
                (all || safe_run(g, p, i))) {
                put_run(g, p, i, -1);
                goto again;
            }
        }
        return;
    }
    for (int i = 0; i < g->ncols; i++)
        if (p->n[i]) {
            int v = p->c[i][p->n[i] - 1];
            if (NEEDS(p, v) && (all || safe(g, p, v))) {
                p->n[i]--;
                put(g, p, v);
                goto again;
            }
        }
    for (int c = 0; c < g->ncells; c++) {
        int v = p->cells[c];
        if (v != EMPTY && NEEDS(p, v) && (all || safe(g, p, v))) {
            p->cells[c] = EMPTY;
            put(g, p, v);
            goto again;
        }
    }
}

static void autoplay(const Game *g, Pos *p) {
    if (g->policy == AUTO_OFF) return;
    if (g->first_played) {
        /* Autoplay never chooses the base rank (rules.autoplay_moves). */
        int any = 0;
        for (int i = 0; i < g->npiles && !any; i++) any = p->fn[i] != 0;
        if (!any) return;
    }
    if (g->order || g->general) {
        autoplay_in_order(g, p);
        return;
    }
    int all = g->policy == AUTO_ALL;
    int moved = 1;
    while (moved) {
        moved = 0;
        for (int i = 0; i < g->ncols; i++) {
            while (p->n[i]) {
                int v = p->c[i][p->n[i] - 1];
                if (!NEEDS(p, v) || !(all || safe(g, p, v))) break;
                put(g, p, v);
                p->n[i]--;
                moved = 1;
            }
        }
        for (int c = 0; c < g->ncells; c++) {
            int v = p->cells[c];
            if (v != EMPTY && NEEDS(p, v) && (all || safe(g, p, v))) {
                put(g, p, v);
                p->cells[c] = EMPTY;
                moved = 1;
            }
        }
    }
}

static int is_won(const Game *g, const Pos *p) {
    if (g->general) {
        int up = 0;
        for (int i = 0; i < g->npiles; i++) up += p->fn[i];
        return up == g->total;
    }
    for (int s = 0; s < 4; s++)
        for (int i = 0; i < g->copies; i++)
            if (p->fh[s][i] != 13) return 0;
    return 1;
}

/* ---- keys ------------------------------------------------------------------------------ */

typedef struct {
    const uint8_t *buf;
    uint64_t acc;
    int bits, pos, len;
} BitR;

static inline uint32_t br_get(BitR *r, int nbits) {
    while (r->bits < nbits) {
        uint64_t b = r->pos < r->len ? r->buf[r->pos] : 0;
        r->pos++;
        r->acc |= b << r->bits;
        r->bits += 8;
    }
    uint32_t v = (uint32_t)(r->acc & ((1u << nbits) - 1));
    r->acc >>= nbits;
    r->bits -= nbits;
    return v;
}

static inline int col_cmp(const Pos *p, int a, int b) {
    int na = p->n[a], nb = p->n[b];
    if (!na || !nb) return na - nb;
    /* One deck: distinct first cards decide at once. */
    if (p->c[a][0] != p->c[b][0]) return (int)p->c[a][0] - (int)p->c[b][0];
    int m = na < nb ? na : nb;
    int d = memcmp(p->c[a], p->c[b], m);
    if (d) return d;
    return na - nb;
}

/* The key's order of columns a and b (below 0: a first): by the first card (empty columns
   first), then by col_cmp where first cards are equal, then by index; a total order. */
static inline int key_cmp(const Pos *p, int a, int b) {
    int d = (p->n[a] ? p->c[a][0] + 1 : 0) - (p->n[b] ? p->c[b][0] + 1 : 0);
    if (!d && p->n[a]) d = col_cmp(p, a, b);
    return d ? d : a - b;
}

/* col_order from another order (a permutation of the columns), the same result, by
   insertion sort; col_order starts it from the identity (a child of a known parent uses
   col_order_changed instead). Ties (empty columns, equal columns) go by index. */
static void col_order_from(const Game *g, const Pos *p, int *order, const uint8_t *start) {
    for (int i = 0; i < g->ncols; i++) order[i] = start[i];
    for (int i = 1; i < g->ncols; i++) {
        int x = order[i], j = i - 1;
        for (; j >= 0 && key_cmp(p, order[j], x) > 0; j--) order[j + 1] = order[j];
        order[j + 1] = x;
    }
}

/* col_order of a child from its parent's key order (start: the real column at each place,
   or NULL where the parent lies in key order), `changed` the columns whose lengths differ
   from the parent's (a bit each): the others keep their order among themselves (key_cmp
   reads only their cards and indexes), so they are taken in that order and each changed
   column is put in its place found by bisection. The same result as col_order_from, in
   about log2(ncols) comparisons a changed column rather than ncols - 1 and more. */
static void col_order_changed(const Game *g, const Pos *p, int *order, const uint8_t *start,
                              uint32_t changed) {
    int n = 0;
    if (start)
        for (int o = 0; o < g->ncols; o++) {
            int i = start[o];
            order[n] = i;
            n += !(changed >> i & 1);
        }
    else
        for (int i = 0; i < g->ncols; i++) {
            order[n] = i;
            n += !(changed >> i & 1);
        }
    for (; changed; changed &= changed - 1) {
        int x = __builtin_ctz(changed), lo = 0, hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >> 1;
            if (key_cmp(p, order[mid], x) > 0)
                hi = mid;
            else
                lo = mid + 1;
        }
        memmove(order + lo + 1, order + lo, (size_t)(n - lo) * sizeof *order);
        order[lo] = x;
        n++;
    }
}

/* The order the key lists the columns in: sorted (canonical) or as they lie. Sorted means
   by the first card (empty columns first), which decides unless two first cards are
   equal, then by col_cmp, then by index: col_order_from from the identity. */
static void col_order(const Game *g, const Pos *p, int *order) {
    uint8_t start[MAXCOLS];
    for (int i = 0; i < g->ncols; i++) order[i] = start[i] = (uint8_t)i;
    if (g->canonical) col_order_from(g, p, order, start);
}

/* The order the key lists the cells in (indexes): sorted by card (canonical), or as they
   lie; equal cards keep their real order. */
static inline __attribute__((always_inline)) void cell_order(const Game *g, const Pos *p,
                                                             int *order) {
    for (int i = 0; i < g->ncells; i++) order[i] = i;
    if (!g->canonical) return;
    for (int i = 1; i < g->ncells; i++) {
        int x = order[i], j = i - 1;
        while (j >= 0 && p->cells[order[j]] > p->cells[x]) {
            order[j + 1] = order[j];
            j--;
        }
        order[j + 1] = x;
    }
}

/* A column: its length (4 bits, or 15 and 8 more); then either 1, the number of a column
   of the start position and how many of its first cards begin this one (Game.ref), or 0
   and the first card (6 bits); then per card either 1 and its index among the cards that
   may be built on the card below (Game.child_bits: none when only one may be) or 0 and
   the card's 6 bits. */
/* With general foundations each pile follows: its length (6 bits), then its first and top
   cards (6 bits each) when it holds any. With g->order and `extra` given, the real place
   of each column and cell in key order goes there (g->extra bytes, not part of the key). */
static inline uint64_t load64le(const uint8_t *at) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t v;
    memcpy(&v, at, 8);
    return v;
#else
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)at[i] << (8 * i);
    return v;
#endif
}

/* How many first bytes of a and b (each with 8 bytes readable past lim) agree, at most
   lim. */
static inline int common_prefix(const uint8_t *a, const uint8_t *b, int lim) {
    int m = 0;
    while (m < lim) {
        uint64_t x, y;
        memcpy(&x, a + m, 8);
        memcpy(&y, b + m, 8);
        x ^= y;
        if (x) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && defined(__GNUC__)
            m += __builtin_ctzll(x) >> 3;
#else
            while (a[m] == b[m]) m++;
#endif
            return m < lim ? m : lim;
        }
        m += 8;
    }
    return lim;
}

/* The order the key lists the foundation piles in (indexes): each run of piles alike
   (Game.pile_run_end) sorted by length, first and top card (canonical), or the piles as
   they lie. Such piles differ in nothing a later move sees but their cards, so the order
   in which they were started is forgotten. */
static inline uint32_t pile_rank(const Game *g, const Pos *p, int i) {
    return p->fn[i] ? (uint32_t)p->fn[i] << 16 | (uint32_t)g->rep_first[i][p->ffirst[i]] << 8 |
                          g->rep_top[i][p->ftop[i]]
                    : 0;
}

static void pile_order(const Game *g, const Pos *p, int *order) {
    for (int i = 0; i < g->npiles; i++) order[i] = i;
    if (!g->canonical) return;
    for (int start = 0, end; start < g->npiles; start = end) {
        end = g->pile_run_end[start];
        for (int k = start + 1; k < end; k++) {
            int x = order[k], j = k - 1;
            uint32_t rx = pile_rank(g, p, x);
            for (; j >= start && pile_rank(g, p, order[j]) > rx; j--) order[j + 1] = order[j];
            order[j + 1] = x;
        }
    }
}

/* 32-bit pieces of the longest column's code. */
#define PIECES ((12 + 14 + 7 * MAXLEN) / 32 + 2)

/* The code of one column (described above encode), in 32-bit pieces, least significant
   bit first, the last one padded with 0; returns its number of bits. */
static int col_code(const Game *g, const uint8_t *c, int n, uint32_t *out) {
    uint64_t acc = 0;
    int bits = 0, len = 0;
#define FLUSH()                                                                            \
    if (bits >= 32) {                                                                      \
        out[len++] = (uint32_t)acc;                                                        \
        acc >>= 32;                                                                        \
        bits -= 32;                                                                        \
    }
    if (n < 15) {
        acc = (uint64_t)n;
        bits = 4;
    } else {
        acc = (uint64_t)(15 | ((n - 15) << 4));
        bits = 12;
    }
    if (n) {
        /* The longest start of a column of the start position, if coding it so is shorter
           than coding its cards. */
        int from = 1, best = 0, best_r = 0;
        for (int q = 0; q < g->nref_first[c[0]]; q++) {
            int r = g->ref_first[c[0]][q], lim = n < g->ref_len[r] ? n : g->ref_len[r];
            int m = common_prefix(g->ref[r], c, lim);
            if (m > best) {
                best = m;
                best_r = r;
            }
        }
        if (best && g->ref_bits + g->len_bits < g->plain[best_r][best]) {
            acc |= (uint64_t)(1u | (uint32_t)best_r << 1 | (uint32_t)best << (1 + g->ref_bits))
                   << bits;
            bits += 1 + g->ref_bits + g->len_bits;
            from = best;
        } else {
            acc |= (uint64_t)c[0] << (bits + 1);
            bits += 7;
        }
        FLUSH();
        for (int k = from; k < n; k++) {
            uint32_t code = g->code[c[k - 1]][c[k]];
            acc |= (uint64_t)(code & 255) << bits;
            bits += (int)(code >> 8);
            FLUSH();
        }
    }
#undef FLUSH
    out[len] = (uint32_t)acc;
    return 32 * len + bits;
}

/* What a child may take from its parent, the position being expanded: a child's column of
   the same length is the same column (moves and autoplay only take cards from the top of a
   column or put them there), so its code is copied from the parent's key (key: the key,
   with 8 bytes of 0 after it; column i's code: nbits[i] bits from bit at[i]) and its part
   of the score is reused. */
typedef struct {
    const Pos *parent;
    uint8_t scored[MAXCOLS]; /* whether part[i] holds column i's part of the score yet */
    int part[MAXCOLS];
    uint16_t at[MAXCOLS], nbits[MAXCOLS];
    /* how each column's code begins: the cards its first part stands for (the reference
       prefix's length, or 1 for a first card coded alone; 0 when empty), and whether that
       part is a reference prefix (see col_code_kept) */
    uint8_t from[MAXCOLS], ref[MAXCOLS];
    uint32_t empty; /* the parent's empty columns, a bit each */
    /* the parent's columns whose first card another column of it begins with too (only
       where a value has several cards), a bit each */
    uint32_t tied;
    /* with g->order: the parent's columns in key order (the column at each place) */
    uint8_t korder[MAXCOLS];
    uint8_t kpos[MAXCOLS]; /* with g->order: each column's place in korder */
    const uint8_t *extra;  /* with g->order: the parent's stored places (its node's extra) */
    uint16_t cells_at;     /* where the parent's cells' codes begin in its key (bits) */
    uint8_t key[MAXKEY + 16];
} ColCodes;

/* Whether the first n (1 to MAXCELLS) of two positions' cells hold the same cards: two
   8-byte loads each, the bytes past n masked off. */
static inline int same_cells(const uint8_t *a, const uint8_t *b, int n) {
    uint64_t a0, a1, b0, b1;
    memcpy(&a0, a, 8);
    memcpy(&b0, b, 8);
    memcpy(&a1, a + 8, 8);
    memcpy(&b1, b + 8, 8);
    uint64_t m0 = n >= 8 ? ~0ull : (1ull << (8 * n)) - 1;
    uint64_t m1 = n >= 16 ? ~0ull : n <= 8 ? 0 : (1ull << (8 * (n - 8))) - 1;
    return !((a0 ^ b0) & m0) && !((a1 ^ b1) & m1);
}

/* Bit k set when byte k of x is not 0 (SWAR: no carry crosses bytes; the multiply gathers
   the eight flags into the top byte). */
static inline uint32_t nonzero_bytes(uint64_t x) {
    const uint64_t low7 = 0x7F7F7F7F7F7F7F7Full;
    uint64_t t = (((x & low7) + low7) | x) & ~low7;
    return (uint32_t)(((t >> 7) * 0x0102040810204080ull) >> 56);
}

/* The columns whose lengths differ in a and b (MAXCOLS lengths each), a bit each. */
static inline uint32_t differing_columns(const Game *g, const uint8_t *a, const uint8_t *b) {
    uint32_t m = 0;
    for (int k = 0; k < MAXCOLS; k += 8) {
        uint64_t x, y;
        memcpy(&x, a + k, 8);
        memcpy(&y, b + k, 8);
        m |= nonzero_bytes(x ^ y) << k;
    }
    return m & (uint32_t)((1ull << g->ncols) - 1);
}

/* The empty columns of p, a bit each. */
static inline uint32_t empty_columns(const Game *g, const Pos *p) {
    static const uint8_t zero[MAXCOLS];
    return ~differing_columns(g, p->n, zero) & (uint32_t)((1ull << g->ncols) - 1);
}

/* Whether col_order's order of p is its parent's key order cc->korder (g->order, where
   positions keep their real order). changed: the columns whose lengths differ from the
   parent's, a bit each. An order is col_order's when each pair of neighbours in it is in
   order (key_cmp: a total order), and
   only pairs with a changed column can have left their order. */
static inline int korder_holds(const Game *g, const Pos *p, const ColCodes *cc,
                               uint32_t changed) {
    for (; changed; changed &= changed - 1) {
        int x = __builtin_ctz(changed), o = cc->kpos[x];
        if (o > 0 && key_cmp(p, cc->korder[o - 1], x) > 0) return 0;
        if (o + 1 < g->ncols && key_cmp(p, x, cc->korder[o + 1]) > 0) return 0;
    }
    return 1;
}

/* How encode may make a child's column code from its parent's (cc, column i: the parent's
   n0 cards pc, the child's n1 cards c, the child's column being the parent's less cards
   from its top or with cards put on top, n1 != n0, both non-empty). col_code begins a column
   with the longest common start it has with a reference column (the first such in
   ref_first's order) when naming it is shorter than coding its cards, else with its first
   card alone. KEPT_SHORTER (n1 < n0): the child's code begins as the parent's, so it is the
   parent's less the codes of the cards gone: the parent's reference prefix (from[i] cards)
   is kept whole, so every common start is the parent's cut at n1 and the longest is the
   parent's; or the parent's first card stood alone, so either no reference column begins
   with it or coding the longest common start card by card was as short as naming it, and
   a shorter start is no longer to code (plain[r][m] grows with m). REF_ONLY + r (n1 < n0):
   the child is the first n1 cards of the parent's reference prefix, named as reference
   column r's first n1 cards: r is the first reference column with all n1 in common (the
   parent's has), and naming them is shorter. KEPT_LONGER (n1 > n0): no reference column
   that has all n0 of the parent's cards in common goes on with the child's next card, so
   every common start is the parent's and the code is the parent's followed by the codes of
   the cards put on. 0: made afresh. */
enum { AFRESH = 0, KEPT_SHORTER, KEPT_LONGER, REF_ONLY };
static inline __attribute__((always_inline)) int
col_code_kept(const Game *g, const ColCodes *cc, int i, const uint8_t *pc, int n0,
              const uint8_t *c, int n1) {
    if (!n0 || !n1) return AFRESH;
    const int from = cc->from[i];
    if (n1 < n0) {
        if (n1 >= from) return KEPT_SHORTER;
        /* The parent names its first `from` cards (n1 < from), a reference column's. */
        const int v = pc[0];
        for (int q = 0; q < g->nref_first[v]; q++) {
            int r = g->ref_first[v][q];
            if (g->ref_len[r] >= n1 && common_prefix(g->ref[r], pc, n1) == n1)
                return g->ref_bits + g->len_bits < g->plain[r][n1] ? REF_ONLY + r : AFRESH;
        }
        return AFRESH; /* not reached: the parent's reference column has them */
    }
    /* A named prefix shorter than the parent's column: no reference column has all n0
       cards in common, so none can go on with the child's next card. */
    if (cc->ref[i] && from < n0) return KEPT_LONGER;
    const int v = c[0], next = c[n0];
    for (int q = 0; q < g->nref_first[v]; q++) {
        int r = g->ref_first[v][q];
        if (g->ref_len[r] > n0 && g->ref[r][n0] == next && common_prefix(g->ref[r], c, n0) == n0)
            return AFRESH;
    }
    return KEPT_LONGER;
}

/* The key of p into out (MAXKEY + 8 bytes), its length returned. cc: the codes of the
   columns of p's parent, or NULL. */
static int encode(const Game *g, const Pos *p, uint8_t *out, uint8_t *extra, const ColCodes *cc) {
    int order[MAXCOLS], corder[MAXCELLS];
    int held = 0; /* the columns in the parent's key order (cc->korder), not in order[] */
    int kept = 0; /* the cells as the parent's: their codes copied, corder[] not made */
    uint64_t acc = 0;
    int bits = 0, len = 0;
    uint32_t tmp[PIECES];
#define FLUSH()                                                                            \
    if (bits >= 32) {                                                                      \
        uint32_t word = (uint32_t)acc;                                                     \
        memcpy(out + len, &word, 4);                                                       \
        len += 4;                                                                          \
        acc >>= 32;                                                                        \
        bits -= 32;                                                                        \
    }
    /* nb bits of the parent's key from bit `from`, appended. */
#define COPY_BITS(from_, nb_)                                                              \
    do {                                                                                   \
        size_t from = (from_);                                                             \
        int nb = (nb_);                                                                    \
        for (; nb >= 32; nb -= 32, from += 32) {                                           \
            acc |= (uint64_t)(uint32_t)(load64le(cc->key + (from >> 3)) >> (from & 7))     \
                   << bits;                                                                \
            uint32_t word = (uint32_t)acc;                                                 \
            memcpy(out + len, &word, 4);                                                   \
            len += 4;                                                                      \
            acc >>= 32;                                                                    \
        }                                                                                  \
        acc |= ((load64le(cc->key + (from >> 3)) >> (from & 7)) & ((1ull << nb) - 1))     \
               << bits;                                                                    \
        bits += nb;                                                                        \
        FLUSH();                                                                           \
    } while (0)
    /* Column i's code, made afresh, appended. */
#define CODE_COLUMN(i_)                                                                    \
    do {                                                                                   \
        const uint32_t *pc = tmp;                                                          \
        int nb = col_code(g, p->c[i_], p->n[i_], tmp);                                     \
        for (; nb >= 32; nb -= 32) {                                                       \
            acc |= (uint64_t)*pc++ << bits;                                                \
            uint32_t word = (uint32_t)acc;                                                 \
            memcpy(out + len, &word, 4);                                                   \
            len += 4;                                                                      \
            acc >>= 32;                                                                    \
        }                                                                                  \
        acc |= (uint64_t)*pc << bits;                                                      \
        bits += nb;                                                                        \
        FLUSH();                                                                           \
    } while (0)
    /* Column i's code made from its parent's column's code (cc), the child's column being
       the parent's less cards from its top or with cards put on top (moves and autoplay
       take cards from the top only and put them on top only), where col_code would begin
       both alike (see col_code_kept), or the child's is a reference prefix alone; else
       made afresh. The length field is made anew; then the parent's code after its length
       field, less the codes of the cards gone (each the code of a card on the one below
       it), or followed by those of the cards put on. */
#define CODE_COLUMN_INC(i_)                                                                \
    do {                                                                                   \
        const int ci = (i_), n0 = cc->parent->n[ci], n1 = p->n[ci];                        \
        const int kind = col_code_kept(g, cc, ci, cc->parent->c[ci], n0, p->c[ci], n1);    \
        if (kind) {                                                                        \
            if (n1 < 15) {                                                                 \
                acc |= (uint64_t)n1 << bits;                                               \
                bits += 4;                                                                 \
            } else {                                                                       \
                acc |= (uint64_t)(15 | ((n1 - 15) << 4)) << bits;                          \
                bits += 12;                                                                \
            }                                                                              \
            FLUSH();                                                                       \
        }                                                                                  \
        if (kind == KEPT_SHORTER) {                                                        \
            const uint8_t *pcol = cc->parent->c[ci];                                       \
            const int h0 = n0 < 15 ? 4 : 12;                                               \
            int body = cc->nbits[ci] - h0;                                                 \
            for (int k = n1; k < n0; k++) body -= g->code[pcol[k - 1]][pcol[k]] >> 8;     \
            COPY_BITS((size_t)cc->at[ci] + h0, body);                                      \
        } else if (kind == KEPT_LONGER) {                                                  \
            const uint8_t *ccol = p->c[ci];                                                \
            const int h0 = n0 < 15 ? 4 : 12;                                               \
            COPY_BITS((size_t)cc->at[ci] + h0, cc->nbits[ci] - h0);                        \
            for (int k = n0; k < n1; k++) {                                                \
                uint32_t code = g->code[ccol[k - 1]][ccol[k]];                             \
                acc |= (uint64_t)(code & 255) << bits;                                     \
                bits += (int)(code >> 8);                                                  \
                FLUSH();                                                                   \
            }                                                                              \
        } else if (kind >= REF_ONLY) {                                                     \
            acc |= (uint64_t)(1u | (uint32_t)(kind - REF_ONLY) << 1 |                      \
                              (uint32_t)n1 << (1 + g->ref_bits))                           \
                   << bits;                                                                \
            bits += 1 + g->ref_bits + g->len_bits;                                         \
            FLUSH();                                                                       \
        } else                                                                             \
            CODE_COLUMN(ci);                                                               \
    } while (0)
    /* A child of a parent decoded in key order (no real order kept) lists its columns in
       the same order when no column became empty or stopped being empty and no column
       that changed begins with the same card as another (cc->tied; with one card per
       value first cards are distinct): only an empty column's first card changes, and
       columns with distinct first cards are sorted by them alone. Then the codes of its
       unchanged columns lie in the parent's key in a row, between those of the columns
       that changed (a move changes one or two, autoplay a few more). */
    if (cc && g->canonical && !g->order && empty_columns(g, p) == cc->empty) {
        uint32_t changed = differing_columns(g, cc->parent->n, p->n);
        if (!(changed & cc->tied)) {
            size_t at = 0; /* the columns start the key */
            for (; changed; changed &= changed - 1) {
                int i = __builtin_ctz(changed);
                COPY_BITS(at, (int)(cc->at[i] - at));
                CODE_COLUMN_INC(i);
                at = (size_t)cc->at[i] + cc->nbits[i];
            }
            int last = g->ncols - 1;
            COPY_BITS(at, (int)(cc->at[last] + cc->nbits[last] - at));
            goto cells; /* order[] serves only g->order, not kept here */
        }
    }
    /* Where positions keep their real order and the parent's key order still holds (a
       move seldom moves a column past another), the same short cut by the key's places. */
    if (cc && g->order && g->canonical) {
        uint32_t changed = differing_columns(g, cc->parent->n, p->n);
        if (korder_holds(g, p, cc, changed)) {
            uint32_t places = 0;
            for (uint32_t m = changed; m; m &= m - 1) places |= 1u << cc->kpos[__builtin_ctz(m)];
            size_t at = 0;
            for (; places; places &= places - 1) {
                int i = cc->korder[__builtin_ctz(places)];
                COPY_BITS(at, (int)(cc->at[i] - at));
                CODE_COLUMN_INC(i);
                at = (size_t)cc->at[i] + cc->nbits[i];
            }
            int last = cc->korder[g->ncols - 1];
            COPY_BITS(at, (int)(cc->at[last] + cc->nbits[last] - at));
            held = 1;
            goto cells;
        }
        col_order_changed(g, p, order, cc->korder, changed);
    } else if (cc && g->canonical)
        col_order_changed(g, p, order, NULL, differing_columns(g, cc->parent->n, p->n));
    else
        col_order(g, p, order);
    for (int o = 0; o < g->ncols;) {
        int i = order[o];
        if (!cc) {
            CODE_COLUMN(i);
            o++;
        } else if (cc->parent->n[i] == p->n[i]) {
            /* The parent's column, and with it those that follow it here as they did in
               the parent's key: their codes in one copy. */
            int last = i;
            for (o++; o < g->ncols; o++) {
                int x = order[o];
                if (cc->parent->n[x] != p->n[x]) break;
                if (g->order ? cc->kpos[x] != cc->kpos[last] + 1 : x != last + 1) break;
                last = x;
            }
            COPY_BITS(cc->at[i], (int)(cc->at[last] + cc->nbits[last] - cc->at[i]));
        } else {
            CODE_COLUMN_INC(i);
            o++;
        }
    }
cells:
    if (!g->ncells) {
        /* No cells: nothing to write. */
    } else if (cc && same_cells(p->cells, cc->parent->cells, g->ncells)) {
        /* The parent's cells (most moves do not touch them): their codes, 6 bits each,
           follow its columns' in its key. */
        COPY_BITS(cc->cells_at, 6 * g->ncells);
        kept = 1;
    } else if (cc && g->canonical && !g->order && g->copies == 1) {
        /* A child's cells with one card per value (a reserve that only gives, in Flower
           Garden 16 cells, changes with every card played from it): the cards by value
           from a mask, then the free cells, which sort last (EMPTY): the codes that
           cell_order's sort gives, without the sort. A key made afresh takes the sort,
           so the check build compares the two. */
        uint64_t m = 0;
        for (int i = 0; i < g->ncells; i++) m |= 1ULL << (p->cells[i] & 63);
        m &= ~(1ULL << 63); /* EMPTY & 63: no card's bit, as one deck has 52 */
        int free_cells = g->ncells - __builtin_popcountll(m);
        for (; m; m &= m - 1) {
            acc |= (uint64_t)__builtin_ctzll(m) << bits;
            bits += 6;
            FLUSH();
        }
        /* The free cells' codes (63, all ones), up to five at a time. */
        while (free_cells > 0) {
            int k = free_cells < 5 ? free_cells : 5;
            acc |= ((1ULL << (6 * k)) - 1) << bits;
            bits += 6 * k;
            FLUSH();
            free_cells -= k;
        }
    } else {
        cell_order(g, p, corder);
        for (int i = 0; i < g->ncells; i++) {
            int v = p->cells[corder[i]];
            acc |= (uint64_t)(v == EMPTY ? 63 : v) << bits;
            bits += 6;
            FLUSH();
        }
    }
#undef COPY_BITS
#undef CODE_COLUMN_INC
#undef CODE_COLUMN
    if (g->general) {
        int porder[MAXPILES];
        pile_order(g, p, porder);
        for (int o = 0; o < g->npiles; o++) {
            int i = porder[o];
            acc |= (uint64_t)p->fn[i] << bits;
            bits += 6;
            FLUSH();
            if (!p->fn[i]) continue;
            acc |= (uint64_t)(g->rep_first[i][p->ffirst[i]] | (g->rep_top[i][p->ftop[i]] << 6))
                   << bits;
            bits += 12;
            FLUSH();
        }
    }
#undef FLUSH
    if (extra && g->order) {
        /* extra_bits per place: the columns', then the cells'. */
        uint64_t a = 0;
        int nb = 0, n = 0, w = g->extra_bits;
#define PUT_PLACE(x)                                                                       \
    do {                                                                                   \
        a |= (uint64_t)(x) << nb;                                                          \
        if ((nb += w) >= 32) { /* four whole bytes, least significant first */            \
            uint32_t word = (uint32_t)a;                                                   \
            memcpy(extra + n, &word, 4);                                                   \
            n += 4;                                                                        \
            a >>= 32;                                                                      \
            nb -= 32;                                                                      \
        }                                                                                  \
    } while (0)
        if (kept && !held) cell_order(g, p, corder);
        if (held && kept) {
            /* Every place is the parent's. */
            memcpy(extra, cc->extra, (size_t)g->extra);
            n = g->extra;
            nb = 0;
        } else if (held) {
            /* The columns' places are the parent's: copy them from its stored ones. */
            n = w * g->ncols / 8;
            nb = w * g->ncols % 8;
            memcpy(extra, cc->extra, (size_t)n);
            a = nb ? cc->extra[n] & ((1u << nb) - 1) : 0;
        } else
            for (int k = 0; k < g->ncols; k++) PUT_PLACE(order[k]);
        if (!(held && kept))
            for (int k = 0; k < g->ncells; k++) PUT_PLACE(corder[k]);
#undef PUT_PLACE
        for (; nb > 0; nb -= 8, a >>= 8) extra[n++] = (uint8_t)a;
    }
    while (bits > 0) {
        out[len++] = (uint8_t)acc;
        acc >>= 8;
        bits -= 8;
    }
    return len;
}


#ifdef CSOLVER_CHECK_KEYS
/* A build for checking the short cuts above (CFLAGS=-DCSOLVER_CHECK_KEYS): every key made
   from a parent's codes is made again from nothing and must be the same, byte for byte, and
   so must the real places stored beside it (extra, where positions keep their order). */
static int encode_checked(const Game *g, const Pos *p, uint8_t *out, uint8_t *extra,
                          const ColCodes *cc) {
    int len = encode(g, p, out, extra, cc);
    if (cc) {
        uint8_t again[MAXKEY + 16], places[MAXCOLS + MAXCELLS];
        if (encode(g, p, again, extra ? places : NULL, NULL) != len ||
            memcmp(again, out, (size_t)len) ||
            (extra && g->order && memcmp(places, extra, (size_t)g->extra))) {
            fprintf(stderr, "_csolver: a key made from the parent's codes differs\n");
            abort();
        }
    }
    return len;
}
#define encode encode_checked
#endif

/* The position of a key. col_at, col_nbits (or NULL): where each column's code lies in the
   key (its first bit, its number of bits). */
static void decode_key(const Game *g, const uint8_t *key, int len, Pos *p, uint16_t *col_at,
                       uint16_t *col_nbits, uint8_t *col_from, uint8_t *col_ref) {
    /* The key, with 8 zero bytes after it: the next 57 bits at bit `at` are one load. */
    uint8_t buf[MAXKEY + 16];
    size_t at = 0;
    memcpy(buf, key, len);
    memset(buf + len, 0, 8);
#define PEEK() (load64le(buf + (at >> 3)) >> (at & 7))
#define GET(v, nbits)                                                                      \
    do {                                                                                   \
        v = (int)(PEEK() & ((1u << (nbits)) - 1));                                         \
        at += (nbits);                                                                     \
    } while (0)
    /* Which cards are in play: with one deck and one pile per suit a bit per card (each
       suit's foundation holds the ranks below the lowest of its cards in play), else a
       count per kind. */
    const int counting = g->general || g->copies > 1;
    uint64_t present = 0;
    uint8_t count[MAXV];
    if (counting) memset(count, 0, sizeof count);
    for (int i = 0; i < g->ncols; i++) {
        size_t start = at;
        uint64_t w = PEEK();
        int n = (int)(w & 15);
        if (n == 15) {
            n += (int)((w >> 4) & 255);
            at += 12;
        } else
            at += 4;
        p->n[i] = (uint8_t)n;
        if (!n) {
            if (col_at) {
                col_at[i] = (uint16_t)start;
                col_nbits[i] = (uint16_t)(at - start);
                col_from[i] = col_ref[i] = 0;
            }
            continue;
        }
        uint8_t *c = p->c[i];
        int from = 1;
        w = PEEK();
        const int isref = (int)(w & 1);
        if (isref) {
            int q = (int)((w >> 1) & ((1u << g->ref_bits) - 1));
            from = (int)((w >> (1 + g->ref_bits)) & ((1u << g->len_bits) - 1));
            at += 1 + g->ref_bits + g->len_bits;
            if (from <= 16) /* as in pos_copy: rows have bytes to spare */
                memcpy(c, g->ref[q], 16);
            else
                memcpy(c, g->ref[q], (size_t)from);
            if (counting)
                for (int k = 0; k < from; k++) count[c[k]]++;
            else
                present |= g->refmask[q][from];
        } else {
            c[0] = (uint8_t)((w >> 1) & 63);
            at += 7;
            if (counting)
                count[c[0]]++;
            else
                present |= (uint64_t)1 << c[0];
        }
        for (int k = from; k < n; k++) {
            w = PEEK();
            int below = c[k - 1];
            if (w & 1) {
                int cb = g->child_bits[below];
                c[k] = g->children[below][(w >> 1) & ((1u << cb) - 1)];
                at += 1 + cb;
            } else {
                c[k] = (uint8_t)((w >> 1) & 63);
                at += 7;
            }
            if (counting)
                count[c[k]]++;
            else
                present |= (uint64_t)1 << c[k];
        }
        if (col_at) {
            col_at[i] = (uint16_t)start;
            col_nbits[i] = (uint16_t)(at - start);
            col_from[i] = (uint8_t)from;
            col_ref[i] = (uint8_t)isref;
        }
    }
    for (int i = 0; i < g->ncells; i++) {
        int v;
        GET(v, 6);
        p->cells[i] = v == 63 ? EMPTY : (uint8_t)v;
        if (v == 63) continue;
        if (counting)
            count[v]++;
        else
            present |= (uint64_t)1 << v;
    }
    memset(p->fh, 0, sizeof p->fh);
    p->need = 0;
    if (g->general) {
        for (int i = 0; i < g->npiles; i++) {
            int v;
            GET(v, 6);
            p->fn[i] = (uint8_t)v;
            if (v) {
                GET(v, 6);
                p->ffirst[i] = (uint8_t)v;
                GET(v, 6);
                p->ftop[i] = (uint8_t)v;
            }
        }
        for (int v = 0; v < MAXV; v++) p->upc[v] = (uint8_t)(g->copies - count[v]);
        general_need(g, p);
        return;
    }
#undef GET
#undef PEEK
    if (!counting) {
        for (int s = 0; s < 4; s++) {
            uint64_t in_play = (present >> (13 * s)) & 0x1FFF;
            p->fh[s][0] = (uint8_t)(in_play ? __builtin_ctzll(in_play) : 13);
            suit_need(g, p, s);
        }
        return;
    }
    for (int s = 0; s < 4; s++) {
        for (int i = 0; i < g->copies; i++) {
            int h = 0;
            while (h < 13 && g->copies - count[s * 13 + h] > i) h++;
            p->fh[s][i] = (uint8_t)h;
        }
        suit_need(g, p, s);
    }
}

/* A stored position: its key, in the real order `extra` gives (NULL: key order). */
/* cc (or NULL): the parent's ColCodes to fill with where each column's code lies. */
static void decode(const Game *g, const uint8_t *key, int len, const uint8_t *extra, Pos *p,
                   ColCodes *cc) {
    if (!extra || !g->order) {
        decode_key(g, key, len, p, cc ? cc->at : NULL, cc ? cc->nbits : NULL,
                   cc ? cc->from : NULL, cc ? cc->ref : NULL);
        return;
    }
    Pos q;
    BitR r = {extra, 0, 0, 0, g->extra};
    uint16_t at[MAXCOLS], nbits[MAXCOLS];
    uint8_t from[MAXCOLS], ref[MAXCOLS];
    decode_key(g, key, len, &q, at, nbits, from, ref);
    pos_copy(g, p, &q);
    for (int o = 0; o < g->ncols; o++) {
        int i = (int)br_get(&r, g->extra_bits);
        p->n[i] = q.n[o];
        if (q.n[o]) memcpy(p->c[i], q.c[o], q.n[o]);
        if (cc) {
            cc->at[i] = at[o];
            cc->nbits[i] = nbits[o];
            cc->from[i] = from[o];
            cc->ref[i] = ref[o];
            cc->korder[o] = (uint8_t)i;
            cc->kpos[i] = (uint8_t)o;
        }
    }
    for (int k = 0; k < g->ncells; k++) p->cells[br_get(&r, g->extra_bits)] = q.cells[k];
}

static inline uint64_t hash_key(const uint8_t *k, int len) {
    uint64_t h = 0x9E3779B97F4A7C15ull ^ (uint64_t)len;
    int i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t x;
        memcpy(&x, k + i, 8);
        h = (h ^ x) * 0xFF51AFD7ED558CCDull;
        h ^= h >> 32;
    }
    /* The last 1-7 bytes in one load: every key lies in a buffer or a table chunk with at
       least 8 bytes after it (MAXKEY + 16 bytes; chunks are allocated 8 bytes longer). */
    uint64_t x = 0;
    if (i < len) {
        memcpy(&x, k + i, 8);
        x &= ~0ull >> (64 - 8 * (len - i));
    }
    h = (h ^ x) * 0xC4CEB9FE1A85EC53ull;
    h ^= h >> 29;
    return h;
}

/* ---- memory ------------------------------------------------------------------------------ */

typedef struct {
    size_t used, peak, limit; /* limit 0: none */
} Acc;

static void *acc_alloc(Acc *a, size_t size) {
    if (a->limit && a->used + size > a->limit) return NULL;
    void *p = PyMem_RawMalloc(size);
    if (!p) return NULL;
    a->used += size;
    if (a->used > a->peak) a->peak = a->used;
    return p;
}

static void *acc_calloc(Acc *a, size_t size) {
    void *p = acc_alloc(a, size);
    if (p) memset(p, 0, size);
    return p;
}

static void acc_free(Acc *a, void *p, size_t size) {
    if (!p) return;
    PyMem_RawFree(p);
    a->used -= size;
}

/* ---- a table of keys: the transposition table, the dead-suit cache, sub-search sets ----
   Nodes lie in chunks: [uint32 aux][uint8 len][key][extra: t->extra bytes, not compared,
   the real order of a position (Game.order)]. A node's address is
   (chunk << bits) | offset; a slot holds address + 1 in its low half (0: free) and the low
   32 bits of the key's hash in its high half: a probe reads a node only when the hashes
   agree, and growing rehashes without reading nodes (8 bytes a slot rather than 4, for
   fewer cache misses). */

typedef struct {
    Acc *acc;
    int chunk_bits;
    size_t chunk_size;
    uint8_t **chunks;
    int nchunks, chunks_cap;
    size_t top; /* bytes used in the last chunk */
    uint64_t *slots;
    size_t nslots, count;
    int extra;
} Table;

static int table_init(Table *t, Acc *acc, int chunk_bits, size_t nslots) {
    memset(t, 0, sizeof *t);
    t->acc = acc;
    t->chunk_bits = chunk_bits;
    t->chunk_size = (size_t)1 << chunk_bits;
    t->nslots = nslots;
    t->slots = acc_calloc(acc, nslots * sizeof(uint64_t));
    return t->slots != NULL;
}

static void table_free(Table *t) {
    for (int i = 0; i < t->nchunks; i++) acc_free(t->acc, t->chunks[i], t->chunk_size + 8);
    acc_free(t->acc, t->chunks, t->chunks_cap * sizeof(uint8_t *));
    acc_free(t->acc, t->slots, t->nslots * sizeof(uint64_t));
    t->chunks = NULL;
    t->slots = NULL;
    t->nchunks = t->chunks_cap = 0;
    t->nslots = t->count = 0;
}

static inline uint8_t *node_at(const Table *t, uint32_t addr) {
    return t->chunks[addr >> t->chunk_bits] + (addr & (t->chunk_size - 1));
}

static inline uint32_t node_aux(const Table *t, uint32_t addr) {
    uint32_t a;
    memcpy(&a, node_at(t, addr), 4);
    return a;
}

static int table_grow(Table *t) {
    size_t n = t->nslots * 2;
    uint64_t *slots = acc_calloc(t->acc, n * sizeof(uint64_t));
    if (!slots) return 0;
    for (size_t i = 0; i < t->nslots; i++) {
        uint64_t s = t->slots[i];
        if (!s) continue;
        size_t j = (size_t)(s >> 32) & (n - 1);
        while (slots[j]) j = (j + 1) & (n - 1);
        slots[j] = s;
    }
    acc_free(t->acc, t->slots, t->nslots * sizeof(uint64_t));
    t->slots = slots;
    t->nslots = n;
    return 1;
}

/* Find the key, or store it with aux. Returns the node's address, sets *fresh; returns
   UINT32_MAX when memory ran out. */
static uint32_t table_put_hashed(Table *t, const uint8_t *key, int len,
                                 const uint8_t *extra, uint32_t aux, int *fresh,
                                 uint64_t hashed) {
    if ((t->count + 1) * 4 > t->nslots * 3) {
        /* Past 3/4 full: grow, or if the budget forbids it, fill up to 15/16. */
        if (!table_grow(t) && (t->count + 1) * 16 > t->nslots * 15) return UINT32_MAX;
    }
    size_t mask = t->nslots - 1;
    uint64_t h = hashed & 0xFFFFFFFFull;
    size_t j = (size_t)h & mask;
    uint64_t s;
    while ((s = t->slots[j]) != 0) {
        if ((s >> 32) == h) {
            uint8_t *node = node_at(t, (uint32_t)s - 1);
            if (node[4] == len && memcmp(node + 5, key, len) == 0) {
                *fresh = 0;
                return (uint32_t)s - 1;
            }
        }
        j = (j + 1) & mask;
    }
    size_t need = 5 + (size_t)len + (size_t)t->extra;
    if (!t->nchunks || t->top + need > t->chunk_size) {
        if (t->nchunks == t->chunks_cap) {
            int cap = t->chunks_cap ? t->chunks_cap * 2 : 16;
            if (((size_t)cap << t->chunk_bits) > ((size_t)1 << 32)) return UINT32_MAX;
            uint8_t **c = acc_alloc(t->acc, cap * sizeof(uint8_t *));
            if (!c) return UINT32_MAX;
            if (t->nchunks) memcpy(c, t->chunks, t->nchunks * sizeof(uint8_t *));
            acc_free(t->acc, t->chunks, t->chunks_cap * sizeof(uint8_t *));
            t->chunks = c;
            t->chunks_cap = cap;
        }
        uint8_t *chunk = acc_alloc(t->acc, t->chunk_size + 8);
        if (!chunk) return UINT32_MAX;
        t->chunks[t->nchunks++] = chunk;
        t->top = 0;
    }
    uint32_t addr = (uint32_t)(((size_t)(t->nchunks - 1) << t->chunk_bits) | t->top);
    uint8_t *node = t->chunks[t->nchunks - 1] + t->top;
    memcpy(node, &aux, 4);
    node[4] = (uint8_t)len;
    memcpy(node + 5, key, len);
    if (t->extra) memcpy(node + 5 + len, extra, t->extra);
    t->top += need;
    t->slots[j] = (uint64_t)(addr + 1) | h << 32;
    t->count++;
    *fresh = 1;
    return addr;
}

/* table_put_hashed with the key's hash computed here. */
static uint32_t table_put(Table *t, const uint8_t *key, int len, const uint8_t *extra,
                          uint32_t aux, int *fresh) {
    return table_put_hashed(t, key, len, extra, aux, fresh, hash_key(key, len));
}

/* Forget every key, keeping the first chunk and the slot array. */
static void table_clear(Table *t) {
    for (int i = 1; i < t->nchunks; i++) acc_free(t->acc, t->chunks[i], t->chunk_size + 8);
    if (t->nchunks > 1) t->nchunks = 1;
    t->top = 0;
    memset(t->slots, 0, t->nslots * sizeof(uint64_t));
    t->count = 0;
}

/* ---- the queue: one stack per score (lowest score first, newest first) ------------------ */

#define BLOCK_ITEMS 126
typedef struct Block {
    struct Block *next;
    uint32_t n;
    uint32_t items[BLOCK_ITEMS];
} Block;

typedef struct {
    Acc *acc;
    Block **stack; /* per score - score_lo */
    int nscores, lowest;
    Block *spare;
} Queue;

static int queue_init(Queue *q, Acc *acc, int nscores) {
    q->acc = acc;
    q->nscores = nscores;
    q->lowest = nscores;
    q->spare = NULL;
    q->stack = acc_calloc(acc, nscores * sizeof(Block *));
    return q->stack != NULL;
}

static int queue_push(Queue *q, int score, uint32_t item) {
    Block *b = q->stack[score];
    if (!b || b->n == BLOCK_ITEMS) {
        Block *nb = q->spare;
        if (nb)
            q->spare = nb->next;
        else if (!(nb = acc_alloc(q->acc, sizeof(Block))))
            return 0;
        nb->n = 0;
        nb->next = b;
        q->stack[score] = b = nb;
    }
    b->items[b->n++] = item;
    if (score < q->lowest) q->lowest = score;
    return 1;
}

static int queue_pop(Queue *q, uint32_t *item) {
    while (q->lowest < q->nscores) {
        Block *b = q->stack[q->lowest];
        if (b && b->n) {
            *item = b->items[--b->n];
            if (!b->n) {
                q->stack[q->lowest] = b->next;
                b->next = q->spare;
                q->spare = b;
            }
            return 1;
        }
        q->lowest++;
    }
    return 0;
}

static void queue_free(Queue *q) {
    for (int s = 0; s < q->nscores; s++) {
        Block *b = q->stack[s];
        while (b) {
            Block *next = b->next;
            acc_free(q->acc, b, sizeof(Block));
            b = next;
        }
    }
    while (q->spare) {
        Block *next = q->spare->next;
        acc_free(q->acc, q->spare, sizeof(Block));
        q->spare = next;
    }
    acc_free(q->acc, q->stack, q->nscores * sizeof(Block *));
}

/* ---- the score (heuristic.py) ------------------------------------------------------------ */

/* Cards built on the card below but not in a run with it (the loose term). */
static int loose_cards(const Game *g, const uint8_t *c, int n) {
    int loose = 0;
    for (int k = 1; k < n; k++)
        if (g->can_build[c[k]][c[k - 1]] && !g->can_run[c[k]][c[k - 1]]) loose++;
    return loose;
}

static int column_score(const Game *g, const uint8_t *c, int n) {
    int settled = 0, blockers = 0, homeless = 0;
    if (g->empty_ok[c[0]]) {
        settled = 1;
        while (settled < n && g->can_build[c[settled]][c[settled - 1]]) settled++;
    }
    int lowest[4] = {99, 99, 99, 99};
    for (int k = 0; k < n; k++) {
        int v = c[k], s = v / 13;
        if (lowest[s] < v)
            blockers++;
        else
            lowest[s] = v;
        if (k && !g->nparents[v]) homeless++;
    }
    return g->w[W_BLOCK] * blockers + g->w[W_UNSETTLED] * (n - settled) +
           g->w[W_HOMELESS] * homeless;
}

/* A column's part of the score: its blockers, unsettled, homeless and loose cards, or the
   bonus of an empty column. */
static int column_part(const Game *g, const uint8_t *c, int n) {
    if (!n) return -g->w[W_EMPTY];
    int part = column_score(g, c, n);
    if (g->w[W_LOOSE]) part += g->w[W_LOOSE] * loose_cards(g, c, n);
    return part;
}

/* cc: the column codes (and parts of the score) of p's parent, or NULL. */
static int score(const Game *g, const Pos *p, ColCodes *cc) {
    int up = 0;
    if (g->general)
        for (int i = 0; i < g->npiles; i++) up += p->fn[i];
    else
        for (int s = 0; s < 4; s++)
            for (int i = 0; i < g->copies; i++) up += p->fh[s][i];
    int sc = g->w[W_LEFT] * (g->total - up);
    for (int c = 0; c < g->ncells; c++) {
        int v = p->cells[c];
        if (v == EMPTY) continue;
        sc += g->w[W_CELLS];
        if (!g->nparents[v]) sc += g->w[W_HOMELESS];
    }
    for (int i = 0; i < g->ncols; i++) {
        if (cc && cc->parent->n[i] == p->n[i]) { /* the parent's column (see ColCodes) */
            if (!cc->scored[i]) {
                cc->part[i] = column_part(g, p->c[i], p->n[i]);
                cc->scored[i] = 1;
            }
            sc += cc->part[i];
        } else
            sc += column_part(g, p->c[i], p->n[i]);
    }
    if (g->w[W_DEPTH] && p->need) {
        /* heuristic.py's Scorer.dig: for each card a foundation takes now, the fewest
           cards on any copy of it, 0 in a cell. One pass down each column from its top;
           with one deck a card found is the only copy, and the pass ends when every such
           card is found. */
        uint64_t need = p->need, look = need;
        uint8_t best[MAXV];
        for (int c = 0; c < g->ncells; c++) {
            int v = p->cells[c];
            if (v != EMPTY) look &= ~((uint64_t)1 << v);
        }
        need = look; /* a card in a cell adds nothing */
        for (uint64_t m = need; m; m &= m - 1) best[__builtin_ctzll(m)] = 255;
        for (int i = 0; i < g->ncols && look; i++) {
            const uint8_t *col = p->c[i];
            for (int j = p->n[i] - 1, above = 0; j >= 0; j--, above++) {
                int v = col[j];
                if (!((look >> v) & 1)) continue;
                if (above < best[v]) best[v] = (uint8_t)above;
                if (g->copies == 1) {
                    look &= ~((uint64_t)1 << v);
                    if (!look) break;
                }
            }
        }
        for (; need; need &= need - 1) {
            int v = __builtin_ctzll(need);
            if (best[v] != 255) sc += g->w[W_DEPTH] * best[v];
        }
    }
    return sc;
}

/* ---- move generation (engine.py's children_of) ------------------------------------------ */

typedef int (*EmitFn)(void *ctx, const Pos *parent, Pos *child, int what, int a, int b, int k);

static void run_limits(const Game *g, int free, int empties, long *lim, long *lim_e) {
    switch (g->limit) {
    case LIM_FCPO:
        *lim = *lim_e = free + 1;
        break;
    case LIM_ONE:
        *lim = *lim_e = 1;
        break;
    case LIM_SUPER:
        *lim = (long)(free + 1) << empties;
        *lim_e = empties ? (long)(free + 1) << (empties - 1) : 0;
        break;
    default:
        *lim = *lim_e = BIG;
    }
}

/* Whether general pile z could ever take v: now, or after more cards within its capacity
   (the kinds reachable through pile_next; an over-estimate, which only keeps moves). */
static int ever_takes(const Game *g, const Pos *p, int z, int v) {
    int room = g->pile_cap[z] - p->fn[z];
    uint64_t m = pile_mask(g, p, z), seen = 0;
    for (int step = 0; step < room; step++) {
        if (m >> v & 1) return 1;
        if (!(m & ~seen)) return 0;
        seen |= m;
        uint64_t next = 0;
        for (uint64_t mm = m; mm; mm &= mm - 1) next |= g->pile_next[z][__builtin_ctzll(mm)];
        m = next;
    }
    return 0;
}

/* Send up (engine.py Engine.sent_up_pile, docs/solver.md item 10): the pile to send the
   exposed card v (which fits) to as the only move, or -1. It is sound when autoplay never
   moves a card (Game.send_up), no card in play may be built on v, every card in play the
   pile takes now is of v's value, no more copies of v are in play than piles alike to it
   (as high, taking the same cards), and no other pile could ever take v. inplay: the
   kinds with a card in play. */
static int sent_up_pile(const Game *g, const Pos *p, int v, uint64_t inplay, int *choice) {
    for (int q = 0; q < g->nchildren[v]; q++)
        if (inplay >> g->children[v][q] & 1) return -1;
    int nf = pile_choices(g, p, v, choice);
    for (int pc = 0; pc < nf; pc++) {
        int P = choice[pc];
        uint64_t m = pile_mask(g, p, P);
        if (m & inplay & ~((uint64_t)1 << v)) continue;
        uint32_t like = 0;
        int nlike = 0;
        for (int j = 0; j < g->npiles; j++)
            if ((j == P || (g->pile_alike[P] >> j & 1)) && p->fn[j] == p->fn[P] &&
                pile_mask(g, p, j) == m) {
                like |= (uint32_t)1 << j;
                nlike++;
            }
        if (g->copies - p->upc[v] > nlike) continue;
        int other = 0;
        for (int z = 0; z < g->npiles && !other; z++)
            other = !(like >> z & 1) && ever_takes(g, p, z, v);
        if (!other) return P;
    }
    return -1;
}

/* Calls emit for each move worth trying in p, with the position after it (autoplay
   applied); stops early when emit returns nonzero (and returns that). */
static int generate(const Game *g, const Flags *f, const Pos *p, EmitFn emit, void *ctx) {
    Pos ch;
    int ncols = g->ncols, ncells = g->ncells, auto_ = g->policy != AUTO_OFF;
    int free = 0, first_free = -1, first_empty = -1, empties = 0, r;
    int choice[MAXPILES]; /* the piles a card may go to (pile_choices) */
    /* General foundations: autoplay after every move (engine.py `always`). */
    int always = auto_ && g->general;
    int8_t tophead[MAXV], topnext[MAXCOLS];
    memset(tophead, -1, sizeof tophead);
    for (int c = 0; c < ncells && g->receive; c++)
        if (p->cells[c] == EMPTY) {
            free++;
            if (first_free < 0) first_free = c;
        }
    for (int j = ncols - 1; j >= 0; j--)
        if (p->n[j]) {
            int v = p->c[j][p->n[j] - 1];
            topnext[j] = tophead[v];
            tophead[v] = (int8_t)j;
        }
    for (int j = 0; j < ncols; j++)
        if (!p->n[j]) {
            empties++;
            if (first_empty < 0) first_empty = j;
        }
    if (f->go_home && free < ncells) {
        /* Go home: the first card in a cell whose parent tops a column goes onto it; the
           alternatives kept: each such parent to the first free cell. */
        int hc[MAXCELLS], hj[MAXCELLS], nh = 0;
        for (int c = 0; c < ncells; c++) {
            int v = p->cells[c];
            if (v == EMPTY) continue;
            for (int q = 0; q < g->nparents[v]; q++) {
                int j = tophead[g->parents[v][q]];
                if (j >= 0) {
                    hc[nh] = c;
                    hj[nh++] = j;
                    break;
                }
            }
        }
        if (nh) {
            pos_copy(g, &ch, p);
            ch.c[hj[0]][ch.n[hj[0]]++] = p->cells[hc[0]];
            ch.cells[hc[0]] = EMPTY;
            if ((r = emit(ctx, p, &ch, CT, hc[0], hj[0], 1))) return r;
            if (first_free >= 0)
                for (int h = 0; h < nh; h++) {
                    int j = hj[h];
                    pos_copy(g, &ch, p);
                    ch.cells[first_free] = ch.c[j][--ch.n[j]];
                    if (ch.n[j] && NEEDS(&ch, ch.c[j][ch.n[j] - 1])) autoplay(g, &ch);
                    if ((r = emit(ctx, p, &ch, TC, j, first_free, 1))) return r;
                }
            return 0;
        }
    }
    if (f->send_up) {
        /* Send up: of the exposed cards whose sending up loses nothing, the least value
           goes up, from a cell if one holds it, else from the column least by its cards
           (bottom first, as bytes compare): the same choice whatever the order of columns
           and cells (engine.py Engine._send_up). No other move is tried. */
        uint64_t inplay = 0;
        for (int v = 0; v < MAXV; v++)
            if ((g->present >> v & 1) && p->upc[v] < g->copies) inplay |= (uint64_t)1 << v;
        int best = -1, best_v = MAXV, best_pile = -1;
        for (int i = ncols + ncells - 1; i >= 0; i--) {
            int v = i < ncols ? (p->n[i] ? p->c[i][p->n[i] - 1] : EMPTY) : p->cells[i - ncols];
            if (v == EMPTY || v > best_v || !NEEDS(p, v)) continue;
            if (v == best_v) {
                if (best >= ncols) continue;
                if (i < ncols) {
                    int a = p->n[i], b = p->n[best], m = a < b ? a : b;
                    int d = memcmp(p->c[i], p->c[best], (size_t)m);
                    if (d > 0 || (d == 0 && a >= b)) continue;
                }
            }
            int pile = sent_up_pile(g, p, v, inplay, choice);
            if (pile < 0) continue;
            best = i;
            best_v = v;
            best_pile = pile;
        }
        if (best >= 0) {
            pos_copy(g, &ch, p);
            if (best < ncols)
                ch.n[best]--;
            else
                ch.cells[best - ncols] = EMPTY;
            put_on(g, &ch, best_pile, best_v);
            autoplay(g, &ch);
            return emit(ctx, p, &ch, best < ncols ? TF : CF, best < ncols ? best : best - ncols,
                        best_pile, 1);
        }
    }
    int king_home = 0;
    if (f->king_home && first_empty >= 0 && free < ncells)
        for (int c = 0; c < ncells; c++)
            if (p->cells[c] != EMPTY && g->empty_ok[p->cells[c]]) king_home = 1;
    long lim, lim_e;
    run_limits(g, free, empties, &lim, &lim_e);
    for (int i = 0; i < ncols; i++) {
        int n = p->n[i];
        if (!n) continue;
        const uint8_t *col = p->c[i];
        int top = col[n - 1], run = 1;
        while (run < n && g->can_run[col[n - run]][col[n - run - 1]]) run++;
        if (!(run == n && n > f->frozen && g->empty_ok[col[0]])) {
            int k0, k1;
            if (!king_home) {
                /* Runs onto a column top. */
                if (f->whole_runs) {
                    k0 = k1 = run;
                    if (run > lim) k1 = 0;
                } else {
                    k0 = 1;
                    k1 = run < lim ? run : (int)lim;
                }
                for (int k = k0; k <= k1; k++) {
                    int x = col[n - k];
                    for (int q = 0; q < g->nparents[x]; q++)
                        for (int j = tophead[g->parents[x][q]]; j >= 0; j = topnext[j]) {
                            pos_copy(g, &ch, p);
                            memcpy(ch.c[j] + ch.n[j], col + n - k, k);
                            ch.n[j] += k;
                            ch.n[i] -= k;
                            if (always || (auto_ && ch.n[i] && NEEDS(&ch, ch.c[i][ch.n[i] - 1])))
                                autoplay(g, &ch);
                            if ((r = emit(ctx, p, &ch, TT, i, j, k))) return r;
                        }
                }
            }
            if (first_empty >= 0) {
                /* Runs into the first empty column (never the whole column). */
                if (f->whole_runs_empty) {
                    k0 = k1 = run;
                    if (run > lim_e) k1 = 0;
                } else {
                    k0 = 1;
                    k1 = run < lim_e ? run : (int)lim_e;
                }
                for (int k = k0; k <= k1; k++) {
                    if (k >= n || !g->empty_ok[col[n - k]]) continue;
                    pos_copy(g, &ch, p);
                    memcpy(ch.c[first_empty], col + n - k, k);
                    ch.n[first_empty] = (uint8_t)k;
                    ch.n[i] -= k;
                    if (always || (auto_ && NEEDS(&ch, ch.c[i][ch.n[i] - 1]))) autoplay(g, &ch);
                    if ((r = emit(ctx, p, &ch, TT, i, first_empty, k))) return r;
                }
            }
            if (free && !king_home) {
                pos_copy(g, &ch, p);
                ch.cells[first_free] = (uint8_t)top;
                ch.n[i]--;
                if (always || (auto_ && ch.n[i] && NEEDS(&ch, ch.c[i][ch.n[i] - 1])))
                    autoplay(g, &ch);
                if ((r = emit(ctx, p, &ch, TC, i, first_free, 1))) return r;
            }
        }
        if (g->complete) {
            /* A complete suit up, when autoplay did not take it. */
            if (n >= 13 && NEEDS(p, top) && is_suit(col + n - 13)) {
                int nf = pile_choices(g, p, top, choice);
                for (int pc = 0; pc < nf; pc++) {
                    pos_copy(g, &ch, p);
                    put_run(g, &ch, i, choice[pc]);
                    autoplay(g, &ch);
                    if ((r = emit(ctx, p, &ch, TF, i, choice[pc], 13))) return r;
                }
            }
        } else if (NEEDS(p, top) && !king_home) {
            /* The classic foundations: the one slot of the suit (b = 0); the variant's own
               piles: each the player may choose (b = the pile). */
            int nf = g->general ? pile_choices(g, p, top, choice) : 1;
            for (int pc = 0; pc < nf; pc++) {
                pos_copy(g, &ch, p);
                ch.n[i]--;
                if (g->general)
                    put_on(g, &ch, choice[pc], top);
                else
                    put(g, &ch, top);
                autoplay(g, &ch);
                if ((r = emit(ctx, p, &ch, TF, i, g->general ? choice[pc] : 0, 1))) return r;
            }
        }
    }
    for (int c = 0; c < ncells; c++) {
        int v = p->cells[c];
        if (v == EMPTY) continue;
        if (!king_home)
            for (int q = 0; q < g->nparents[v]; q++)
                for (int j = tophead[g->parents[v][q]]; j >= 0; j = topnext[j]) {
                    pos_copy(g, &ch, p);
                    ch.c[j][ch.n[j]++] = (uint8_t)v;
                    ch.cells[c] = EMPTY;
                    if (always) autoplay(g, &ch);
                    if ((r = emit(ctx, p, &ch, CT, c, j, 1))) return r;
                }
        if (first_empty >= 0 && g->empty_ok[v]) {
            pos_copy(g, &ch, p);
            ch.c[first_empty][0] = (uint8_t)v;
            ch.n[first_empty] = 1;
            ch.cells[c] = EMPTY;
            if (always) autoplay(g, &ch);
            if ((r = emit(ctx, p, &ch, CT, c, first_empty, 1))) return r;
        }
        if (NEEDS(p, v) && !king_home && !g->complete) {
            int nf = g->general ? pile_choices(g, p, v, choice) : 1;
            for (int pc = 0; pc < nf; pc++) {
                pos_copy(g, &ch, p);
                ch.cells[c] = EMPTY;
                if (g->general)
                    put_on(g, &ch, choice[pc], v);
                else
                    put(g, &ch, v);
                autoplay(g, &ch);
                if ((r = emit(ctx, p, &ch, CF, c, g->general ? choice[pc] : 0, 1))) return r;
            }
        }
    }
    return 0;
}

/* ---- the search ------------------------------------------------------------------------ */

typedef struct {
    const Game *g;
    Flags flags;
    Acc acc;
    Table tt;      /* the transposition table: aux = the parent's address */
    Queue queue;
    Table cache;   /* dead-suit verdicts: aux = 1 dead, 0 not */
    Table sub;     /* one sub-search's positions */
    uint32_t *substack;
    size_t substack_cap, subdepth;
    int cache_ready, sub_ready;
    long long sub_positions;
    long long sub_cap; /* the current sub-search's cap: SUB_CAP, or less near the budget */
    long long max_states;
    int status;
    uint32_t won; /* address of the won position */
    uint32_t parent;
    int sub_result;
    uint8_t key[MAXKEY + 16];
    uint8_t extra[MAXCOLS + MAXCELLS];
    ColCodes codes; /* of the position being expanded */
    /* The crowd term: how many positions were queued so far per state of the foundations
       (hashed into CROWD_SLOTS counters; two states sharing a slot share a count).
       Allocated only when the term weighs something, through the memory budget. */
    uint32_t *crowd;
} Search;
#define CROWD_SLOTS (1 << 16)

/* Sub-search emit: depth-first over a single-suit position (deadends.py _unwinnable). */
static int emit_sub(void *ctx, const Pos *parent, Pos *ch, int what, int a, int b, int k) {
    Search *s = ctx;
    const Game *g = s->g;
    int fresh, len = encode(g, ch, s->key, NULL, NULL);
    (void)parent; (void)what; (void)a; (void)b; (void)k;
    if (is_won(g, ch)) {
        s->sub_result = 0;
        return 1;
    }
    uint32_t addr = table_put(&s->sub, s->key, len, NULL, 0, &fresh);
    if (addr == UINT32_MAX) return 2;
    if (!fresh) return 0;
    if ((long long)s->sub.count > s->sub_cap) {
        s->sub_result = 0;
        return 1;
    }
    s->substack[s->subdepth++] = addr;
    return 0;
}

/* Exhaustive search of a single-suit position: 1 when no line wins, 0 when one does or
   the cap was reached, -1 when memory ran out. */
static int unwinnable(Search *s, const Pos *start) {
    const Game *g = s->g;
    if (is_won(g, start)) return 0;
    if (!s->sub_ready) {
        if (!table_init(&s->sub, &s->acc, 14, 1024)) return -1;
        s->substack_cap = SUB_CAP + 8;
        s->substack = acc_alloc(&s->acc, s->substack_cap * sizeof(uint32_t));
        if (!s->substack) return -1;
        s->sub_ready = 1;
    }
    table_clear(&s->sub);
    int fresh, len = encode(g, start, s->key, NULL, NULL);
    uint32_t addr = table_put(&s->sub, s->key, len, NULL, 0, &fresh);
    if (addr == UINT32_MAX) return -1;
    s->subdepth = 0;
    s->substack[s->subdepth++] = addr;
    s->sub_result = 1;
    Pos p;
    int result = 1;
    while (s->subdepth) {
        uint32_t at = s->substack[--s->subdepth];
        uint8_t *node = node_at(&s->sub, at);
        decode(g, node + 5, node[4], NULL, &p, NULL);
        int r = generate(g, &s->flags, &p, emit_sub, s);
        if (r) {
            result = r == 2 ? -1 : s->sub_result;
            break;
        }
    }
    s->sub_positions += (long long)s->sub.count;
    return result;
}

/* A quick proof that a single-suit position can be won (deadends.py _greedy). */
static int greedy(const Game *g, const Pos *p, int suit) {
    int free = 0;
    uint8_t parked[MAXV] = {0};
    int n[MAXCOLS];
    for (int c = 0; c < g->ncells; c++) {
        if (p->cells[c] == EMPTY)
            free++;
        else
            parked[p->cells[c]] = 1;
    }
    for (int i = 0; i < g->ncols; i++) n[i] = p->n[i];
    for (int v = suit * 13 + p->fh[suit][0]; v < suit * 13 + 13; v++) {
        if (parked[v]) {
            parked[v] = 0;
            free++;
            continue;
        }
        int found = 0;
        for (int i = 0; i < g->ncols && !found; i++)
            for (int at = 0; at < n[i]; at++)
                if (p->c[i][at] == v) {
                    int above = n[i] - 1 - at;
                    if (above > free) return 0;
                    free -= above;
                    for (int q = at + 1; q < n[i]; q++) parked[p->c[i][q]] = 1;
                    n[i] = at;
                    found = 1;
                    break;
                }
        if (!found) return 0;
    }
    return 1;
}

/* Whether the single-suit sub-position of suit in p cannot be won: 1 dead, 0 not,
   -1 out of memory. */
static int dead(Search *s, const Pos *p, int suit) {
    const Game *g = s->g;
    Pos sub;
    memcpy(sub.fh, p->fh, sizeof sub.fh);
    for (int q = 0; q < 4; q++)
        if (q != suit) sub.fh[q][0] = 13;
    for (int q = 0; q < 4; q++) suit_need(g, &sub, q);
    for (int i = 0; i < g->ncols; i++) {
        int m = 0;
        for (int k = 0; k < p->n[i]; k++)
            if (p->c[i][k] / 13 == suit) sub.c[i][m++] = p->c[i][k];
        sub.n[i] = (uint8_t)m;
    }
    for (int c = 0; c < g->ncells; c++) {
        int v = p->cells[c];
        sub.cells[c] = (v != EMPTY && v / 13 == suit) ? (uint8_t)v : EMPTY;
    }
    /* Most single-suit positions are won by the greedy line: proved so without a key. */
    if (greedy(g, &sub, suit)) return 0;
    if (!s->cache_ready) {
        if (!table_init(&s->cache, &s->acc, 14, 1024)) return -1;
        s->cache_ready = 1;
    }
    uint8_t key[MAXKEY + 16];
    int fresh, len = encode(g, &sub, key, NULL, NULL);
    uint32_t addr = table_put(&s->cache, key, len, NULL, 2, &fresh);
    if (addr == UINT32_MAX) return -1;
    if (!fresh) {
        uint32_t v = node_aux(&s->cache, addr);
        if (v != 2) return (int)v;
    }
    /* The sub-search's positions count against the budget (deadends.py SuitCheck.dead):
       it may store only what is left, and says "not dead" when that runs out. */
    long long room = s->max_states - (long long)s->tt.count - s->sub_positions;
    if (room < 2) return 0;
    s->sub_cap = room - 1 < SUB_CAP ? room - 1 : SUB_CAP;
    autoplay(g, &sub);
    int verdict = unwinnable(s, &sub);
    if (verdict < 0) return -1;
    uint32_t aux = (uint32_t)verdict;
    memcpy(node_at(&s->cache, addr), &aux, 4);
    if (s->cache.count > CACHE_LIMIT) table_clear(&s->cache);
    return verdict;
}

static int dead_somewhere(Search *s, const Pos *p) {
    for (int suit = 0; suit < 4; suit++) {
        int d = dead(s, p, suit);
        if (d) return d;
    }
    return 0;
}

/* The leave-order test (deadends.py LeaveOrder, docs/solver.md): 1 when some card in play
   can never leave its place, so the position cannot be won. Only for one deck, no cards back
   from the foundations, no cells that take cards and moves that are single cards or decompose into
   them (native.py decides). target: a card whose leaving proves the position passes
   (leave_target), or -1; read only where each value is one card and the foundations are the
   classic ones. */
static int stranded(const Game *g, const Pos *p, int target) {
    /* above[v]: the cards above every card of value v in the columns (several cards per
       value where suits share values, tables.py classes: the test then reads "some card of
       the value", which only lets more cards leave; not made with one card per value, where
       only free cards enter the work list); under[v]: the cards right under a
       card of value v, or with several cards per value every card under one; seen: the
       values in the columns. */
    uint64_t above[MAXV], under[MAXV], cols[MAXCOLS], inplay = 0, reserve = 0, left = 0,
                                                      seen = 0;
    uint8_t col_of[MAXV]; /* one deck: the index in cols of a card's column */
    uint64_t tops = 0;    /* one deck: the cards at the top of the columns */
    int any_empty = 0, ncols = 0;
    const int one = g->copies == 1;
    for (int i = 0; i < g->ncols; i++) {
        uint64_t acc = 0, below = 0;
        if (one) {
            /* One card per value: the same tables, without merging copies, and without
               above[]: every card the work list holds is free then (below). */
            uint64_t u = 0;
            for (int k = 0; k < p->n[i]; k++) {
                int x = p->c[i][k];
                under[x] = u;
                u = 1ULL << x;
                acc |= u;
                col_of[x] = (uint8_t)ncols;
            }
            seen |= acc;
            inplay |= acc;
            tops |= u;
            if (acc)
                cols[ncols++] = acc;
            else
                any_empty = 1;
            continue;
        }
        for (int k = p->n[i] - 1; k >= 0; k--) {
            int x = p->c[i][k];
            above[x] = (seen >> x & 1) ? above[x] & acc : acc;
            seen |= 1ULL << x;
            acc |= 1ULL << x;
        }
        for (int k = 0; k < p->n[i]; k++) {
            int x = p->c[i][k];
            under[x] = (inplay >> x & 1) ? under[x] | below : below;
            inplay |= 1ULL << x;
            below |= 1ULL << x;
        }
        if (acc)
            cols[ncols++] = acc;
        else
            any_empty = 1;
    }
    for (int c = 0; c < g->ncells; c++) {
        int x = p->cells[c];
        if (x == EMPTY) continue;
        reserve |= 1ULL << x;
        if (!(inplay >> x & 1)) under[x] = 0;
    }
    inplay |= reserve;
    /* left: the cards that can leave their place; home: those that can go up. A card goes
       up when it is free (it left, or lies in a reserve, or every card above it left) and
       its foundation takes it: classic ones when every lower card of its suit in play went
       up, the variant's own piles when a pile's top or an empty pile takes it now or a card
       it may follow there went up. The position is lost when some card never goes up.
       The least fixed point comes from a work list (todo): a card is looked at again only
       when a card its conditions read has left or gone up since, or has become free. */
    uint64_t home = 0, takes_now = 0, freed = 0;
    /* One deck: avail holds the cards a card may leave onto, as far as the work list has
       seen: one in a column once it was taken from the list free (its children are woken
       then), one in a reserve once it left. The fixed point is the same as reading the
       columns afresh at each look, as is done where a value has several cards. */
    uint64_t avail = 0;
    if (g->general)
        for (int i = 0; i < g->npiles; i++)
            takes_now |= p->fn[i] ? g->pile_next[i][p->ftop[i]] : g->pile_start[i];
    /* First the free cards (some card of the value, where a value has several): the
       others wait (below). */
    uint64_t todo = reserve | tops;
    if (one && !g->general) {
        /* One card per value and classic foundations (Flower Garden, Good Measure...): the
           loop below without its general cases. Every card the list holds is free here: it
           was a top or in a reserve, lay right under a card that left, or was woken once
           free, and it stays free. */
        while (todo) {
            int v = __builtin_ctzll(todo);
            uint64_t bit = 1ULL << v, wake = 0, wake_up = 0, freed_now = 0;
            todo &= todo - 1;
            if (left & bit) {
                /* It left: it waits only for its turn to go up. */
                if (!(g->lower[v] & inplay & ~home)) {
                    home |= bit;
                    uint64_t up = g->higher[v] & inplay;
                    todo |= up & -up & freed & ~home;
                }
                continue;
            }
            if (!(freed & bit)) {
                /* Free now: in a column, cards may leave onto it (in a reserve, once it
                   left, below). */
                freed |= bit;
                if (seen & bit) {
                    avail |= bit;
                    wake = g->child_mask[v];
                }
            }
            int ok = !(g->lower[v] & inplay & ~home);
            if (ok) {
                home |= bit;
                uint64_t up = g->higher[v] & inplay;
                wake_up = up & -up;
            } else
                ok = (g->parent_mask[v] & avail) || (g->empty_ok[v] && any_empty);
            if (ok) {
                if (v == target) return 0;
                left |= bit;
                freed_now = under[v];
                if (reserve & bit) {
                    avail |= bit;
                    wake |= g->child_mask[v];
                }
                if (g->empty_mask && !any_empty && (seen & bit) && !(cols[col_of[v]] & ~left)) {
                    any_empty = 1;
                    wake |= g->empty_mask;
                }
            }
            todo |= (((freed_now | (wake_up & freed)) & ~home) | (wake & freed & ~left)) & inplay;
        }
        return home != inplay;
    }
    if (!one)
        for (uint64_t m = seen; m; m &= m - 1)
            if (!above[__builtin_ctzll(m)]) todo |= m & -m;
    while (todo) {
        int v = __builtin_ctzll(todo);
        uint64_t bit = 1ULL << v, wake = 0, wake_up = 0, freed_now = 0;
        todo &= todo - 1;
        int gone = (int)(left >> v & 1);
        if (!one && !gone && !(reserve & bit) && (above[v] & ~left)) continue;
        if (!(freed & bit)) {
            /* Free now: cards may leave onto it (from a reserve, once it left). */
            freed |= bit;
            wake = g->child_mask[v];
            if (seen & bit) avail |= bit;
        }
        int ok;
        if (g->general)
            ok = (g->fpred[v] & home) != 0 || (takes_now & bit);
        else
            ok = !(g->lower[v] & inplay & ~home);
        if (ok) {
            home |= bit;
            /* Classic foundations: the next card of the suit in play is the only one
               whose turn may have come. */
            uint64_t up = g->general ? g->fsucc[v] : g->higher[v] & inplay;
            wake_up = g->general ? up : up & -up;
        } else if (!gone) {
            /* A card in a reserve once it left, one in a column once the cards above it
               left (either, where a value has several cards). */
            if (one)
                ok = (g->parent_mask[v] & avail) != 0;
            else
                for (uint64_t pm = g->parent_mask[v] & inplay; pm && !ok; pm &= pm - 1) {
                    int q = __builtin_ctzll(pm);
                    ok = (int)(reserve >> q & left >> q & 1) ||
                         ((seen >> q & 1) && !(above[q] & ~left));
                }
            if (!ok && g->empty_ok[v]) ok = any_empty;
        }
        if (ok && !gone) {
            /* v left: the cards under it may be free now; a card may leave onto v when it
               lay in a reserve; into its column, if that is empty now. */
            left |= bit;
            freed_now = under[v];
            if (reserve & bit) {
                avail |= bit;
                wake |= g->child_mask[v];
            }
            if (g->empty_mask && !any_empty && (seen & bit)) {
                if (one) {
                    if (!(cols[col_of[v]] & ~left)) any_empty = 1;
                } else
                    for (int i = 0; i < ncols && !any_empty; i++)
                        any_empty = (cols[i] & bit) && !(cols[i] & ~left);
                /* A column can be emptied, and stays so. */
                if (any_empty) wake |= g->empty_mask;
            }
        }
        /* A card not yet free waits: it is looked at when the card above it leaves. A card
           that left waits only for its turn to go up; one that did not, also for a place. */
        todo |= (((freed_now | (wake_up & freed)) & ~home) | (wake & freed & ~left)) & inplay;
    }
    return home != inplay;
}

/* The noise term of a new position whose key hashed to `hashed` (the table's hash_key;
   heuristic.py's Scorer.noise: the same mix of a 32-bit hash of the key and the seed,
   though of the C key, not Python's). */
static int noise(const Game *g, uint64_t hashed) {
    uint64_t h = (hashed >> 32) ^ (g->seed * 0x9E3779B97F4A7C15ull);
    h *= 0xD6E8FEB86659FD93ull;
    h ^= h >> 32;
    return (int)(h % (uint64_t)(g->w[W_NOISE] + 1));
}

/* The leave-order test of a child whose parent passes it (the start and every position the
   search stores unstranded, so every position it expands) may stop once it finds that the
   card just moved can leave (docs/solver.md, item 9, "Stopping early"). Where one card x went
   from a column top or a reserve onto a column (onto a card, or into an empty column), and
   the autoplay after it sent up only cards that no card in play may be built on (safe; never
   "all"), the test's conditions in the child are the parent's or easier, once x has left:
   a card under x in its new column is free, may be built on, and lets that column count as
   emptied, once x and what lay above it in the parent left; x's old column lost a card;
   x itself is a place for other cards at once, where in a reserve it had to leave first; a
   card sent up no longer has to go up, nor wait for, and no card in play could have been
   built on it; the rest is the same. So the least fixed point of the child, with x left in
   it, holds every card the parent's holds, less the ones sent up: every card of the child
   goes up, as every card of the parent does. Returns x, with *now = 1 when x can leave at
   once (a card it may be built on tops a column, or an empty column takes it: the test need
   not run), else -1 (the whole test runs). One card per value and the classic foundations
   only, where the proof reads stranded's conditions as they are; checked by the check build
   (CSOLVER_CHECK_KEYS), which runs the whole test as well. */
static int leave_target(const Game *g, const Pos *parent, const Pos *ch, int what, int a, int b,
                        int k, int *now) {
    *now = 0;
    if (g->copies != 1 || g->general || g->policy == AUTO_ALL || k != 1 ||
        (what != TT && what != CT))
        return -1;
    int x = what == TT ? parent->c[a][parent->n[a] - 1] : parent->cells[a];
    /* Sent up by the autoplay after the move: the test runs. */
    if (!ch->n[b] || ch->c[b][ch->n[b] - 1] != x) return -1;
    uint64_t tops = 0;
    int empty = 0;
    for (int i = 0; i < g->ncols; i++)
        if (ch->n[i])
            tops |= 1ULL << ch->c[i][ch->n[i] - 1];
        else
            empty = 1;
    *now = (g->parent_mask[x] & tops) != 0 || (empty && g->empty_ok[x]);
    return x;
}

#ifdef CSOLVER_CHECK_KEYS
/* The check build: the whole leave-order test runs on every child as well, and the short cut
   must never pass a child the test finds stranded. */
static long leave_checked;
static void leave_report(void) {
    if (leave_checked)
        fprintf(stderr, "_csolver: %ld short-cut leave-order tests checked\n", leave_checked);
}
static int stranded_checked(const Game *g, const Pos *parent, const Pos *ch, int what, int a,
                            int b, int k) {
    int now, x = leave_target(g, parent, ch, what, a, b, k, &now), whole = stranded(g, ch, -1);
    if (x >= 0) {
        if (!leave_checked++) atexit(leave_report);
        if (whole && (now || !stranded(g, ch, x))) {
            fprintf(stderr, "_csolver: the leave-order short cut passed a stranded position\n");
            abort();
        }
    }
    return whole;
}
#endif

/* The crowd term of a new position: the bit length of how many positions with its state of
   the foundations were queued so far, this one included. A search that keeps finding
   positions with the same cards up (a closed region it cannot leave by sending a card up,
   often a lost one) rates them worse and worse, so it returns to positions with fewer cards
   up sooner than after exhausting the region. */
static int crowd_bits(Search *s, const Pos *p) {
    const Game *g = s->g;
    uint64_t h = 0x9E3779B97F4A7C15ull;
    if (g->general)
        for (int i = 0; i < g->npiles; i++)
            h = (h ^ ((uint64_t)p->fn[i] | (uint64_t)p->ffirst[i] << 8 |
                      (uint64_t)p->ftop[i] << 16)) * 0xD6E8FEB86659FD93ull;
    else
        for (int q = 0; q < 4; q++)
            for (int i = 0; i < g->copies; i++)
                h = (h ^ p->fh[q][i]) * 0xD6E8FEB86659FD93ull;
    h ^= h >> 29;
    uint32_t c = ++s->crowd[h & (CROWD_SLOTS - 1)];
    int bits = 0;
    while (c) {
        bits++;
        c >>= 1;
    }
    return bits;
}

static int emit_search(void *ctx, const Pos *parent, Pos *ch, int what, int a, int b, int k) {
    Search *s = ctx;
    const Game *g = s->g;
    if ((long long)s->tt.count + s->sub_positions >= s->max_states) {
        /* The budget counts every position stored, the dead-end test's too: never more. */
        s->status = ST_STATES;
        return 1;
    }
    int fresh, len = encode(g, ch, s->key, s->extra, &s->codes);
    uint64_t hashed = hash_key(s->key, len); /* for the table and the noise term */
    uint32_t addr = table_put_hashed(&s->tt, s->key, len, s->extra, s->parent, &fresh, hashed);
    if (addr == UINT32_MAX) {
        s->status = ST_MEMORY;
        return 1;
    }
    if (!fresh) return 0;
    if (is_won(g, ch)) {
        s->won = addr;
        s->status = ST_WON;
        return 1;
    }
    if (s->g->suit_check && what == TT) {
        int d = dead(s, ch, parent->c[a][parent->n[a] - k] / 13);
        if (d < 0) {
            s->status = ST_MEMORY;
            return 1;
        }
        if (d) return 0;
    }
    if (g->leave_check) {
#ifdef CSOLVER_CHECK_KEYS
        if (stranded_checked(g, parent, ch, what, a, b, k)) return 0;
#else
        int now, x = leave_target(g, parent, ch, what, a, b, k, &now);
        if (!now && stranded(g, ch, x)) return 0;
#endif
    }
    int sc = score(g, ch, &s->codes) - g->score_lo;
    if (g->w[W_NOISE]) sc += noise(g, hashed);
    if (g->w[W_CROWD]) sc += g->w[W_CROWD] * crowd_bits(s, ch);
    if (!queue_push(&s->queue, sc, addr)) {
        s->status = ST_MEMORY;
        return 1;
    }
    return 0;
}

static double now_seconds(void) {
#ifdef _WIN32
    return GetTickCount64() / 1000.0;
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
#endif
}

/* ---- translating a won line back to the real piles ----------------------------------- */

typedef struct {
    const Game *g;
    const uint8_t *want;
    int want_len;
    int what, a, b, k;
    Pos *next;
} Match;

static int emit_match(void *ctx, const Pos *parent, Pos *ch, int what, int a, int b, int k) {
    Match *m = ctx;
    uint8_t key[MAXKEY + 16], extra[MAXCOLS + MAXCELLS];
    int len = encode(m->g, ch, key, extra, NULL);
    (void)parent;
    if (len != m->want_len || memcmp(key, m->want, len)) return 0;
    if (m->g->extra && memcmp(extra, m->want + len, m->g->extra)) return 0;
    m->what = what;
    m->a = a;
    m->b = b;
    m->k = k;
    pos_copy(m->g, m->next, ch);
    return 1;
}

/* The moves of the won line from the real start, as a list of (what, a, b, k), or NULL
   with *ok = 0 when a step cannot be matched (a bug). Needs the GIL. */
static PyObject *translate(Search *s, const Pos *start, int *ok) {
    const Game *g = s->g;
    Flags all = {0, 0, 0, 0, BIG, 0}; /* every move, no reduction */
    size_t depth = 0;
    for (uint32_t at = s->won; at != UINT32_MAX; at = node_aux(&s->tt, at)) depth++;
    uint32_t *path = PyMem_RawMalloc((depth ? depth : 1) * sizeof(uint32_t));
    if (!path) return PyErr_NoMemory();
    size_t i = depth;
    for (uint32_t at = s->won; at != UINT32_MAX; at = node_aux(&s->tt, at)) path[--i] = at;
    PyObject *moves = PyList_New(0);
    Pos *base = PyMem_RawMalloc(2 * sizeof(Pos)), *cur = base;
    if (!moves || !cur) {
        PyMem_RawFree(path);
        PyMem_RawFree(base);
        Py_XDECREF(moves);
        return moves ? PyErr_NoMemory() : NULL;
    }
    Pos *next = cur + 1;
    pos_copy(g, cur, start);
    *ok = 1;
    for (i = 1; i < depth; i++) {
        uint8_t *node = node_at(&s->tt, path[i]);
        Match m = {g, node + 5, node[4], -1, 0, 0, 0, next};
        if (!generate(g, &all, cur, emit_match, &m)) {
            *ok = 0;
            break;
        }
        PyObject *t = Py_BuildValue("(iiii)", m.what, m.a, m.b, m.k);
        if (!t || PyList_Append(moves, t) < 0) {
            Py_XDECREF(t);
            Py_DECREF(moves);
            moves = NULL;
            break;
        }
        Py_DECREF(t);
        Pos *tmp = cur;
        cur = next;
        next = tmp;
    }
    PyMem_RawFree(path);
    PyMem_RawFree(base);
    return moves;
}

/* ---- the module function -------------------------------------------------------------- */

#define NSPEC 23

static int read_game(Game *g, PyObject *spec, Py_buffer *build, Py_buffer *run,
                     Py_buffer *empty, PyObject *piles, PyObject *weights) {
    memset(g, 0, sizeof *g);
    long v[NSPEC];
    if (!PyTuple_Check(spec) || PyTuple_GET_SIZE(spec) != NSPEC) {
        PyErr_SetString(PyExc_ValueError, "spec: a tuple of 23 ints");
        return 0;
    }
    for (int i = 0; i < NSPEC; i++) {
        v[i] = PyLong_AsLong(PyTuple_GET_ITEM(spec, i));
        if (v[i] == -1 && PyErr_Occurred()) return 0;
    }
    g->ncols = (int)v[0];
    g->ncells = (int)v[1];
    g->copies = (int)v[2];
    g->nv = (int)v[3];
    g->limit = (int)v[4];
    g->policy = (int)v[5];
    g->whole_runs = (int)v[6];
    g->whole_runs_empty = (int)v[7];
    g->go_home = (int)v[8];
    g->king_home = (int)v[9];
    g->frozen = v[10];
    g->canonical = (int)v[11];
    g->suit_check = (int)v[12];
    g->present = (uint64_t)v[20] & FULL52;
    g->total = __builtin_popcountll(g->present) * g->copies;
    g->receive = v[13] != 0;
    g->general = v[14] != 0;
    g->complete = v[15] != 0;
    g->order = v[16] != 0 && g->canonical;
    g->extra_bits = g->ncols > 16 || g->ncells > 16 ? 5 : 4;
    g->extra = g->order ? (g->extra_bits * (g->ncols + g->ncells) + 7) / 8 : 0;
    g->first_played = v[17] != 0 && g->general;
    g->leave_check = v[18] != 0;
    g->seed = (uint64_t)v[19];
    g->send_up = v[21] != 0 && g->general && !g->complete;
    g->aces_free = v[22] != 0 && !g->general;
    if (g->ncols < 1 || g->ncols > MAXCOLS || g->ncells < 0 || g->ncells > MAXCELLS ||
        g->copies < 1 || g->copies > (g->general ? 4 * MAXCOPIES : MAXCOPIES) || g->nv != MAXV || g->limit < 0 ||
        g->limit > LIM_UNLIM || g->policy < 0 || g->policy > AUTO_ALL ||
        (g->present != FULL52 && !g->general)) {
        PyErr_SetString(PyExc_ValueError, "spec out of range");
        return 0;
    }
    if (build->len != MAXV * MAXV || run->len != MAXV * MAXV || empty->len != MAXV) {
        PyErr_SetString(PyExc_ValueError, "tables of the wrong size");
        return 0;
    }
    if (g->complete && !g->general) {
        PyErr_SetString(PyExc_ValueError, "complete suits need general foundations");
        return 0;
    }
    /* Piles: () for the classic foundations, else one (cap, start, in_suit, group, alike,
       run_end, next) per pile, next: 52 little-endian uint64 masks. */
    if (!PyTuple_Check(piles) || (PyTuple_GET_SIZE(piles) != 0) != g->general ||
        PyTuple_GET_SIZE(piles) > MAXPILES) {
        PyErr_SetString(PyExc_ValueError, "piles: a tuple of at most 16 piles, for general foundations");
        return 0;
    }
    g->npiles = (int)PyTuple_GET_SIZE(piles);
    for (int i = 0; i < g->npiles; i++) {
        int cap, in_suit, run_end;
        unsigned long long start, group, alike;
        const char *next;
        Py_ssize_t nlen;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(piles, i), "iKiKKiy#", &cap, &start, &in_suit,
                              &group, &alike, &run_end, &next, &nlen))
            return 0;
        if (nlen != 8 * MAXV || cap < 1 || cap > 13 * MAXCOPIES || run_end <= i ||
            run_end > g->npiles || (i && run_end != g->pile_run_end[i - 1] &&
                                    g->pile_run_end[i - 1] != i)) {
            PyErr_SetString(PyExc_ValueError, "a pile out of range");
            return 0;
        }
        g->pile_cap[i] = cap;
        g->pile_start[i] = start;
        g->pile_in_suit[i] = in_suit != 0;
        g->pile_group[i] = (uint32_t)group;
        g->pile_alike[i] = (uint32_t)alike;
        g->pile_run_end[i] = run_end;
        for (int k = 0; k < MAXV; k++) {
            uint64_t m = 0;
            for (int b = 0; b < 8; b++) m |= (uint64_t)(uint8_t)next[8 * k + b] << (8 * b);
            g->pile_next[i][k] = m;
        }
    }
    for (int i = 0; i < g->npiles; i++)
        for (int v = 0; v < MAXV; v++) {
            int t = 0; /* the least value with the same row (v itself at worst) */
            while (g->pile_next[i][t] != g->pile_next[i][v]) t++;
            g->rep_top[i][v] = (uint8_t)t;
            g->rep_first[i][v] = (uint8_t)(g->pile_in_suit[i] ? v : v % 13);
        }
    g->suit_full = 13 * g->copies;
    /* The longest key must fit its length byte. */
    if (g->ncols * 13 + g->total * 7 + g->ncells * 6 + g->npiles * 18 > 8 * MAXKEY) {
        PyErr_SetString(PyExc_ValueError, "too many cards and piles for a key");
        return 0;
    }
    const uint8_t *cb = build->buf, *cr = run->buf, *eo = empty->buf;
    for (int x = 0; x < MAXV; x++) {
        g->empty_ok[x] = eo[x] != 0;
        for (int y = 0; y < MAXV; y++) g->can_run[x][y] = cr[x * MAXV + y] != 0;
        for (int y = 0; y < MAXV; y++) {
            int ok = cb[x * MAXV + y] != 0;
            g->can_build[x][y] = (uint8_t)ok;
            if (ok) {
                g->parents[x][g->nparents[x]++] = (uint8_t)y;
                g->children[y][g->nchildren[y]++] = (uint8_t)x;
            }
        }
    }
    memset(g->child_index, EMPTY, sizeof g->child_index);
    for (int y = 0; y < MAXV; y++) {
        int bits = 0;
        while ((1 << bits) < g->nchildren[y]) bits++;
        g->child_bits[y] = (uint8_t)bits;
        for (int i = 0; i < g->nchildren[y]; i++) g->child_index[y][g->children[y][i]] = (uint8_t)i;
        for (int x = 0; x < MAXV; x++) {
            int idx = g->child_index[y][x];
            g->code[y][x] = (uint16_t)(idx == EMPTY ? (x << 1) | (7 << 8)
                                                    : (1 | idx << 1) | ((1 + bits) << 8));
        }
    }
    for (int x = 0; x < MAXV; x++) {
        g->lower[x] = ((1ULL << (x % 13)) - 1) << (x - x % 13);
        for (int q = 0; q < g->nparents[x]; q++) g->parent_mask[x] |= 1ULL << g->parents[x][q];
        for (int i = 0; i < g->npiles; i++)
            for (int y = 0; y < MAXV; y++)
                if (g->pile_next[i][y] >> x & 1) g->fpred[x] |= 1ULL << y;
    }
    for (int x = 0; x < MAXV; x++) {
        if (g->empty_ok[x]) g->empty_mask |= 1ULL << x;
        for (int y = 0; y < MAXV; y++) {
            if (g->lower[x] >> y & 1) g->higher[y] |= 1ULL << x;
            if (g->parent_mask[x] >> y & 1) g->child_mask[y] |= 1ULL << x;
            if (g->fpred[x] >> y & 1) g->fsucc[y] |= 1ULL << x;
        }
    }
    if (!PyTuple_Check(weights) || PyTuple_GET_SIZE(weights) != NWEIGHTS) {
        PyErr_SetString(PyExc_ValueError, "weights: a tuple of 10 ints");
        return 0;
    }
    for (int i = 0; i < NWEIGHTS; i++) {
        long w = PyLong_AsLong(PyTuple_GET_ITEM(weights, i));
        if (w == -1 && PyErr_Occurred()) return 0;
        if (w < -1000 || w > 1000) {
            PyErr_SetString(PyExc_ValueError, "weights: each between -1000 and 1000");
            return 0;
        }
        g->w[i] = (int)w;
    }
    /* Without a card that may be built on another but not run with it the loose term is
       0 everywhere: skip counting it (Seahaven Towers, FreeCell...). */
    int loose_pairs = 0;
    for (int x = 0; x < MAXV && !loose_pairs; x++)
        for (int y = 0; y < MAXV; y++)
            if (g->can_build[x][y] && !g->can_run[x][y]) loose_pairs = 1;
    if (!loose_pairs) g->w[W_LOOSE] = 0;
    /* Bounds of the score, for the queue: each term between 0 and its most. */
    long terms[NWEIGHTS];
    terms[W_LEFT] = g->total;
    terms[W_DEPTH] = (long)g->total * g->total;
    terms[W_CELLS] = g->ncells;
    terms[W_EMPTY] = -g->ncols;
    terms[W_BLOCK] = g->total;
    terms[W_UNSETTLED] = g->total;
    terms[W_HOMELESS] = g->total;
    terms[W_LOOSE] = g->total;
    terms[W_NOISE] = 1;
    terms[W_CROWD] = 33; /* the bit length of a count of positions */
    if (g->w[W_NOISE] < 0) {
        PyErr_SetString(PyExc_ValueError, "weights: the noise term must not be negative");
        return 0;
    }
    long lo = 0, hi = 0;
    for (int i = 0; i < NWEIGHTS; i++) {
        long t = terms[i] * g->w[i];
        if (t < 0)
            lo += t;
        else
            hi += t;
    }
    if (hi - lo > 4000000) {
        PyErr_SetString(PyExc_ValueError, "weights give too wide a range of scores");
        return 0;
    }
    g->score_lo = (int)lo;
    g->score_hi = (int)hi;
    return 1;
}

/* The start position's columns, for the keys (Game.ref). */
static void set_refs(Game *g, const Pos *start) {
    int longest = 0;
    g->ref_bits = 0;
    while ((1 << g->ref_bits) < g->ncols) g->ref_bits++;
    memset(g->nref_first, 0, sizeof g->nref_first);
    for (int i = 0; i < g->ncols; i++) {
        int n = start->n[i];
        g->ref_len[i] = (uint8_t)n;
        if (n > longest) longest = n;
        if (!n) continue;
        memcpy(g->ref[i], start->c[i], n);
        g->refmask[i][0] = 0;
        for (int k = 0; k < n; k++)
            g->refmask[i][k + 1] = g->refmask[i][k] | (uint64_t)1 << start->c[i][k];
        g->plain[i][1] = 6;
        for (int k = 1; k < n; k++)
            g->plain[i][k + 1] =
                (uint16_t)(g->plain[i][k] + (g->code[start->c[i][k - 1]][start->c[i][k]] >> 8));
        int v = start->c[i][0];
        g->ref_first[v][g->nref_first[v]++] = (uint8_t)i;
    }
    g->len_bits = 0;
    while ((1 << g->len_bits) <= longest) g->len_bits++;
}

static int read_pos(const Game *g, PyObject *cols, PyObject *cells, PyObject *found, Pos *p) {
    memset(p, 0, sizeof *p);
    uint8_t count[MAXV] = {0};
    if (!PyTuple_Check(cols) || PyTuple_GET_SIZE(cols) != g->ncols || !PyBytes_Check(cells) ||
        PyBytes_GET_SIZE(cells) != g->ncells || !PyTuple_Check(found) ||
        PyTuple_GET_SIZE(found) != (g->general ? g->npiles : 4 * g->copies)) {
        PyErr_SetString(PyExc_ValueError, "position of the wrong shape");
        return 0;
    }
    for (int i = 0; i < g->ncols; i++) {
        PyObject *col = PyTuple_GET_ITEM(cols, i);
        if (!PyBytes_Check(col) || PyBytes_GET_SIZE(col) > MAXLEN) {
            PyErr_SetString(PyExc_ValueError, "a column must be bytes");
            return 0;
        }
        p->n[i] = (uint8_t)PyBytes_GET_SIZE(col);
        memcpy(p->c[i], PyBytes_AS_STRING(col), p->n[i]);
        for (int k = 0; k < p->n[i]; k++) {
            if (p->c[i][k] >= MAXV) goto bad;
            count[p->c[i][k]]++;
        }
    }
    const uint8_t *cb = (const uint8_t *)PyBytes_AS_STRING(cells);
    for (int c = 0; c < g->ncells; c++) {
        p->cells[c] = cb[c];
        if (cb[c] != EMPTY) {
            if (cb[c] >= MAXV) goto bad;
            count[cb[c]]++;
        }
    }
    if (g->general) {
        for (int f = 0; f < g->npiles; f++) {
            PyObject *pile = PyTuple_GET_ITEM(found, f);
            if (!PyBytes_Check(pile) || PyBytes_GET_SIZE(pile) > g->pile_cap[f]) goto bad;
            const uint8_t *pc = (const uint8_t *)PyBytes_AS_STRING(pile);
            int n = (int)PyBytes_GET_SIZE(pile);
            p->fn[f] = (uint8_t)n;
            for (int k = 0; k < n; k++) {
                if (pc[k] >= MAXV) goto bad;
                p->upc[pc[k]]++;
            }
            if (n) {
                p->ffirst[f] = pc[0];
                p->ftop[f] = pc[n - 1];
            }
        }
        for (int v = 0; v < MAXV; v++) {
            if (!(g->present >> v & 1)) {
                if (p->upc[v] + count[v]) goto bad;
                p->upc[v] = (uint8_t)g->copies; /* a hole: no card, as if all up */
            } else if (p->upc[v] + count[v] != g->copies)
                goto bad;
        }
        general_need(g, p);
        return 1;
    }
    for (int f = 0; f < 4 * g->copies; f++) {
        PyObject *pile = PyTuple_GET_ITEM(found, f);
        if (!PyBytes_Check(pile) || PyBytes_GET_SIZE(pile) > 13) goto bad;
        p->fh[f / g->copies][f % g->copies] = (uint8_t)PyBytes_GET_SIZE(pile);
    }
    for (int s = 0; s < 4; s++) {
        suit_need(g, p, s);
        for (int r = 0; r < 13; r++) {
            int up = 0;
            for (int i = 0; i < g->copies; i++) up += p->fh[s][i] > r;
            if (up + count[s * 13 + r] != g->copies) goto bad;
        }
    }
    return 1;
bad:
    PyErr_SetString(PyExc_ValueError, "the position does not hold every card exactly once");
    return 0;
}

static PyObject *py_solve(PyObject *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"spec", "can_build", "can_run", "empty_ok", "piles", "weights",
                            "cols", "cells", "found", "max_states", "max_bytes", "timeout",
                            "cancel", "progress", NULL};
    PyObject *spec, *weights, *cols, *cells, *found, *piles, *cancel = Py_None,
                                                          *progress = Py_None;
    Py_buffer build, run, empty;
    long max_states;
    long long max_bytes;
    double timeout;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "Oy*y*y*OOOOOlLd|OO", names, &spec, &build, &run,
                                     &empty, &piles, &weights, &cols, &cells, &found,
                                     &max_states, &max_bytes, &timeout, &cancel, &progress))
        return NULL;
    PyObject *result = NULL;
    Search *s = PyMem_RawCalloc(1, sizeof(Search));
    Game *g = PyMem_RawMalloc(sizeof(Game));
    Pos *start = PyMem_RawMalloc(2 * sizeof(Pos));
    if (!s || !g || !start) {
        PyErr_NoMemory();
        goto done;
    }
    if (!read_game(g, spec, &build, &run, &empty, piles, weights)) goto done;
    if (!read_pos(g, cols, cells, found, start)) goto done;
    set_refs(g, start);
    Pos *p = start + 1;
    s->g = g;
    s->flags.go_home = g->go_home;
    s->flags.king_home = g->king_home;
    s->flags.whole_runs = g->whole_runs;
    s->flags.whole_runs_empty = g->whole_runs_empty;
    s->flags.frozen = g->frozen;
    s->flags.send_up = g->send_up;
    s->acc.limit = max_bytes > 0 ? (size_t)max_bytes : 0;
    s->max_states = max_states;
    s->status = ST_RUNNING;
    s->won = UINT32_MAX;
    int callbacks = cancel != Py_None || progress != Py_None;
    double deadline = timeout >= 0 ? now_seconds() + timeout : -1;
    int tt_ready = 0, queue_ready = 0;
    long long stored = 0;
    long expanded = 0;
    PyObject *err_type = NULL, *err_value = NULL, *err_tb = NULL;

    Py_BEGIN_ALLOW_THREADS
    /* Small first slot array and 16 KB chunks: small searches stay small. */
    if (!table_init(&s->tt, &s->acc, 14, 1024))
        s->status = ST_MEMORY;
    else {
        tt_ready = 1;
        s->tt.extra = g->extra;
        if (!queue_init(&s->queue, &s->acc, g->score_hi - g->score_lo + 1))
            s->status = ST_MEMORY;
        else
            queue_ready = 1;
        if (queue_ready && g->w[W_CROWD] &&
            !(s->crowd = acc_calloc(&s->acc, CROWD_SLOTS * sizeof(uint32_t))))
            s->status = ST_MEMORY;
    }
    if (s->status == ST_RUNNING) {
        int fresh, len = encode(g, start, s->key, s->extra, NULL);
        uint32_t addr = table_put(&s->tt, s->key, len, s->extra, UINT32_MAX, &fresh);
        if (addr == UINT32_MAX)
            s->status = ST_MEMORY;
        else if (is_won(g, start)) {
            s->won = addr;
            s->status = ST_WON;
        } else {
            int d = g->suit_check ? dead_somewhere(s, start) : 0;
            if (d < 0)
                s->status = ST_MEMORY;
            else if (d || (g->leave_check && stranded(g, start, -1)))
                s->status = ST_UNWINNABLE;
            else if (!queue_push(&s->queue, score(g, start, NULL) - g->score_lo, addr))
                s->status = ST_MEMORY;
        }
    }
    uint32_t at;
    while (s->status == ST_RUNNING) {
        if (!queue_pop(&s->queue, &at)) {
            s->status = ST_UNWINNABLE;
            break;
        }
        expanded++;
        if (!(expanded & 255) || (long long)s->tt.count + s->sub_positions >= max_states) {
            if ((long long)s->tt.count + s->sub_positions >= max_states) {
                s->status = ST_STATES;
                break;
            }
            if (deadline >= 0 && now_seconds() >= deadline) {
                s->status = ST_TIME;
                break;
            }
            if (callbacks && !(expanded & 1023)) {
                int stop = 0;
                Py_BLOCK_THREADS
                if (cancel != Py_None) {
                    PyObject *r = PyObject_CallNoArgs(cancel);
                    if (!r)
                        stop = 2;
                    else {
                        int t = PyObject_IsTrue(r);
                        Py_DECREF(r);
                        stop = t < 0 ? 2 : t;
                    }
                }
                if (!stop && progress != Py_None) {
                    PyObject *r = PyObject_CallFunction(progress, "n", (Py_ssize_t)s->tt.count);
                    if (!r)
                        stop = 2;
                    else
                        Py_DECREF(r);
                }
                if (stop == 2) PyErr_Fetch(&err_type, &err_value, &err_tb);
                Py_UNBLOCK_THREADS
                if (stop) {
                    s->status = stop == 2 ? ST_ERROR : ST_CANCELLED;
                    break;
                }
            }
        }
        uint8_t *node = node_at(&s->tt, at);
        /* The parent of the children made next: its key (padded), its columns' codes. */
        memcpy(s->codes.key, node + 5, node[4]);
        memset(s->codes.key + node[4], 0, 8);
        s->codes.extra = node + 5 + node[4];
        decode(g, node + 5, node[4], node + 5 + node[4], p, &s->codes);
        {
            int last = g->order ? s->codes.korder[g->ncols - 1] : g->ncols - 1;
            s->codes.cells_at = (uint16_t)(s->codes.at[last] + s->codes.nbits[last]);
        }
        s->codes.parent = p;
        s->codes.empty = empty_columns(g, p);
        s->codes.tied = 0;
        if (g->copies > 1) {
            uint8_t first_at[64] = {0}; /* a first card's column + 1 */
            for (int i = 0; i < g->ncols; i++) {
                if (!p->n[i]) continue;
                int v = p->c[i][0];
                if (first_at[v])
                    s->codes.tied |= 1u << i | 1u << (first_at[v] - 1);
                else
                    first_at[v] = (uint8_t)(i + 1);
            }
        }
        memset(s->codes.scored, 0, sizeof s->codes.scored);
        s->parent = at;
        generate(g, &s->flags, p, emit_search, s);
    }
    stored = (long long)s->tt.count;
    Py_END_ALLOW_THREADS

    if (s->status == ST_ERROR) {
        PyErr_Restore(err_type, err_value, err_tb);
        goto cleanup;
    }
    {
        PyObject *moves = Py_None;
        int st = s->status;
        if (st == ST_WON) {
            int ok = 1;
            moves = translate(s, start, &ok);
            if (!moves) goto cleanup;
            if (!ok) {
                Py_DECREF(moves);
                moves = Py_None;
                st = ST_TRANSLATE;
            }
        } else
            Py_INCREF(moves);
        result = Py_BuildValue("(sNLLnL)", STATUS_NAMES[st], moves,
                               stored + s->sub_positions, (long long)s->acc.peak,
                               (Py_ssize_t)expanded, stored);
    }
cleanup:
    if (s->crowd) acc_free(&s->acc, s->crowd, CROWD_SLOTS * sizeof(uint32_t));
    if (queue_ready) queue_free(&s->queue);
    if (tt_ready) table_free(&s->tt);
    if (s->cache_ready) table_free(&s->cache);
    if (s->sub_ready) {
        table_free(&s->sub);
        acc_free(&s->acc, s->substack, s->substack_cap * sizeof(uint32_t));
    }
done:
    PyBuffer_Release(&build);
    PyBuffer_Release(&run);
    PyBuffer_Release(&empty);
    PyMem_RawFree(s);
    PyMem_RawFree(g);
    PyMem_RawFree(start);
    return result;
}

/* ---- the one-foundation games' depth-first search (solver/golf.py in C) --------------
 *
 * The same search as solitaire_core/solver/golf.py, position for position: a position is
 * the columns' heights, the stock's size and the rank on the foundation packed into one
 * 64-bit key exactly as golf.py packs it, stored once in an open-addressed set, and the
 * moves are tried in golf.py's order (the first column first, the stock last). So both
 * engines store the same positions in the same order and return the same line; the tests
 * compare them. Arguments are checked by golf.py, which calls this. */

#define GOLF_MAX_COLS 64

typedef struct {
    uint64_t *slots; /* key + 1, 0 for an empty slot */
    size_t mask, count;
    size_t peak; /* the most bytes the slots took at once */
} KeySet;

static uint64_t mix64(uint64_t x) { /* splitmix64's finaliser */
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* 1 when ``key`` is new (and now stored), 0 when stored before, -1 without memory. */
static int keyset_add(KeySet *k, uint64_t key) {
    key += 1;
    if ((k->count + 1) * 2 > k->mask + 1) {
        size_t size = (k->mask + 1) * 2;
        uint64_t *bigger = PyMem_RawCalloc(size, sizeof(uint64_t));
        if (!bigger) return -1;
        size_t both = (k->mask + 1 + size) * sizeof(uint64_t); /* old and new, while copying */
        if (both > k->peak) k->peak = both;
        for (size_t i = 0; i <= k->mask; i++) {
            uint64_t old = k->slots[i];
            if (!old) continue;
            size_t h = mix64(old) & (size - 1);
            while (bigger[h]) h = (h + 1) & (size - 1);
            bigger[h] = old;
        }
        PyMem_RawFree(k->slots);
        k->slots = bigger;
        k->mask = size - 1;
    }
    size_t h = mix64(key) & k->mask;
    while (k->slots[h]) {
        if (k->slots[h] == key) return 0;
        h = (h + 1) & k->mask;
    }
    k->slots[h] = key;
    k->count++;
    return 1;
}

/* Whether a depth-first search stops now (asked every 4,096 positions stored, as
   golf.py's over_budget asks): past ``deadline`` (-1: none; *reason "time budget"), or
   cancel() (Py_None: never) returned true (*reason "cancelled") or raised (*stop -1: the
   caller passes the exception on). Called with the GIL released: ``save`` is the thread
   state Py_BEGIN_ALLOW_THREADS saved, taken back for the call and released again. */
static int asked_to_stop(double deadline, PyObject *cancel, PyThreadState **save,
                         const char **reason, int *stop) {
    if (deadline >= 0 && now_seconds() > deadline) {
        *reason = "time budget";
        return 1;
    }
    if (cancel == Py_None) return 0;
    PyEval_RestoreThread(*save);
    PyObject *r = PyObject_CallNoArgs(cancel);
    if (!r)
        *stop = -1;
    else {
        *stop = PyObject_IsTrue(r);
        Py_DECREF(r);
    }
    *save = PyEval_SaveThread();
    if (!*stop) return 0;
    *reason = "cancelled";
    return 1;
}

static PyObject *py_golf(PyObject *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"columns", "deck", "top", "over", "wrap", "closed_king",
                            "max_states", "timeout", "cancel", NULL};
    PyObject *columns, *over, *cancel = Py_None;
    Py_buffer deck;
    int top, wrap, closed_king;
    long long max_states;
    double timeout;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!y*iO!ppLd|O", names, &PyTuple_Type, &columns,
                                     &deck, &top, &PyTuple_Type, &over, &wrap, &closed_king,
                                     &max_states, &timeout, &cancel))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(columns);
    uint8_t *cards[GOLF_MAX_COLS];
    int heights[GOLF_MAX_COLS], shift[GOLF_MAX_COLS];
    uint64_t covers[GOLF_MAX_COLS]; /* the columns lying over each column, one bit each */
    uint8_t *path = NULL, *tops = NULL, *next = NULL;
    KeySet seen = {NULL, 0, 0, 1024 * sizeof(uint64_t)};
    const uint8_t *dealt = deck.buf;
    Py_ssize_t stock_left = deck.len;
    if (n < 1 || n > GOLF_MAX_COLS || (PyTuple_GET_SIZE(over) && PyTuple_GET_SIZE(over) != n) ||
        top < 0 || top > 13 || max_states < 1) {
        PyErr_SetString(PyExc_ValueError, "golf: bad columns, covering, top or budget");
        goto done;
    }
    int most = 1, left = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *col = PyTuple_GET_ITEM(columns, i);
        if (!PyBytes_Check(col)) {
            PyErr_SetString(PyExc_TypeError, "golf: each column is bytes of ranks");
            goto done;
        }
        cards[i] = (uint8_t *)PyBytes_AS_STRING(col);
        heights[i] = (int)PyBytes_GET_SIZE(col);
        if (heights[i] > most) most = heights[i];
        left += heights[i];
        covers[i] = 0;
        if (PyTuple_GET_SIZE(over)) {
            PyObject *o = PyTuple_GET_ITEM(over, i);
            if (!PyBytes_Check(o)) {
                PyErr_SetString(PyExc_TypeError, "golf: each covering is bytes of columns");
                goto done;
            }
            for (Py_ssize_t j = 0; j < PyBytes_GET_SIZE(o); j++) {
                int c = (uint8_t)PyBytes_AS_STRING(o)[j];
                if (c >= n) {
                    PyErr_SetString(PyExc_ValueError, "golf: a covering column out of range");
                    goto done;
                }
                covers[i] |= 1ULL << c;
            }
        }
    }
    int bits = 0, stock_bits = 0;
    while ((1 << bits) <= most) bits++;
    while (((Py_ssize_t)1 << stock_bits) <= (stock_left > 0 ? stock_left : 1)) stock_bits++;
    if (4 + stock_bits + bits * n > 64) {
        PyErr_SetString(PyExc_ValueError, "golf: the position does not fit 64 bits");
        goto done;
    }
    uint64_t code = 0, occupied = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        shift[i] = 4 + stock_bits + bits * (int)i;
        code += (uint64_t)heights[i] << shift[i];
        if (heights[i]) occupied |= 1ULL << i;
    }
    if (!left) {
        result = Py_BuildValue("(sy#nsn)", "winnable", "", (Py_ssize_t)0, (Py_ssize_t)1, "",
                               (Py_ssize_t)0);
        goto done;
    }
    size_t depth_max = (size_t)left + (size_t)stock_left + 2;
    path = PyMem_RawMalloc(depth_max);
    tops = PyMem_RawMalloc(depth_max);
    next = PyMem_RawMalloc(depth_max);
    seen.slots = PyMem_RawCalloc(1024, sizeof(uint64_t));
    seen.mask = 1023;
    if (!path || !tops || !next || !seen.slots) {
        PyErr_NoMemory();
        goto done;
    }
    const char *verdict = "unwinnable", *reason = "";
    int status = 0; /* 0 running/lost, 1 won, 2 stopped, 3 memory */
    int stop = 0;
    double deadline = timeout >= 0 ? now_seconds() + timeout : -1;
    long long depth = 0;
    keyset_add(&seen, code | (uint64_t)stock_left << 4 | (uint64_t)top);
    next[0] = 0;
    Py_BEGIN_ALLOW_THREADS
    while (depth >= 0) {
        int m = -1;
        for (int i = next[depth]; i <= n; i++) {
            if (i == n) {
                if (stock_left) m = i;
                break;
            }
            if (!heights[i] || (covers[i] & occupied)) continue;
            int rank = cards[i][heights[i] - 1];
            if (top) {
                if (closed_king && top == 13) continue;
                int gap = rank > top ? rank - top : top - rank;
                if (!(gap == 1 || (wrap && gap == 12))) continue;
            }
            m = i;
            break;
        }
        if (m < 0) { /* every move from here tried: take back the one that led here */
            depth--;
            if (depth < 0) break;
            int back = path[depth];
            top = tops[depth];
            if (back == n)
                stock_left++;
            else {
                heights[back]++;
                code += 1ULL << shift[back];
                occupied |= 1ULL << back;
                left++;
            }
            continue;
        }
        next[depth] = (uint8_t)(m + 1);
        tops[depth] = (uint8_t)top;
        path[depth] = (uint8_t)m;
        if (m == n) {
            stock_left--;
            top = dealt[stock_left];
        } else {
            heights[m]--;
            code -= 1ULL << shift[m];
            left--;
            top = cards[m][heights[m]];
            if (!heights[m]) occupied &= ~(1ULL << m);
            if (!left) {
                status = 1;
                break;
            }
        }
        int fresh = keyset_add(&seen, code | (uint64_t)stock_left << 4 | (uint64_t)top);
        if (fresh < 0) {
            status = 3;
            break;
        }
        if (!fresh) { /* stored before: a frame with nothing to try takes the move back */
            depth++;
            next[depth] = (uint8_t)(n + 1);
            continue;
        }
        if ((long long)seen.count >= max_states) {
            status = 2;
            reason = "state budget";
            break;
        }
        if (!(seen.count % 4096) && asked_to_stop(deadline, cancel, &_save, &reason, &stop)) {
            status = 2;
            break;
        }
        depth++;
        next[depth] = 0;
    }
    Py_END_ALLOW_THREADS
    if (stop < 0) goto done; /* cancel raised: pass its exception on */
    if (status == 3) {
        PyErr_NoMemory();
        goto done;
    }
    if (status == 1) verdict = "winnable";
    if (status == 2) verdict = "undecided";
    result = Py_BuildValue("(sy#nsn)", verdict, (const char *)path,
                           (Py_ssize_t)(status == 1 ? depth + 1 : 0), (Py_ssize_t)seen.count,
                           reason, (Py_ssize_t)(seen.peak + 3 * depth_max));
done:
    PyBuffer_Release(&deck);
    PyMem_RawFree(path);
    PyMem_RawFree(tops);
    PyMem_RawFree(next);
    PyMem_RawFree(seen.slots);
    return result;
}

/* ---- the thoughtful search of the stock games (solver/stock.py in C) ----------------
 *
 * The same best-first search as solitaire_core/solver/stock.py, position for position,
 * for the Klondike, Yukon, Canfield, Spider, Gypsy and Forty Thieves families (one deck
 * or two, four foundations a deck in suit from a base rank or taking complete suits,
 * columns with face-down cards, a stock dealing onto a waste or in rows, a reserve whose
 * top card plays): the moves of rules.legal_moves in its order, the K+
 * folding of stock.expand, the autoplay of rules.autoplay_moves (general path, safe as
 * is_safe_to_foundation and _wanted_back say), the score of stock._score, and positions
 * stored under the same equality as rules.canonical_key (stock.blind_key in the narrowed
 * search where the build rule treats some cards alike: the columns' cards by class). Children go on a heap ordered by
 * score, then by the newest first, as stock.py's heapq with its decreasing tick; so both
 * engines store the same positions in the same order. The rules are compiled by
 * stock.py (build, run, empty and wanting tables over card indexes slot * 13 + rank - 1,
 * a slot being one suit of one deck), which also decides which games come here (stock.native_unsupported). */

#define SK_COLS 10
#define SK_CARDS 104 /* two decks: card index slot * 13 + rank - 1 (SkRules.suit_c) */
#define SK_SLOTS 8
#define SK_COLLEN 104 /* no column can hold more */
#define SK_PILE 104
#define SK_FOUND 8 /* four piles a deck */
#define SK_KEY 200 /* sk_key's bytes: 2 a column, 1 a card, 3 counts, 8 a pile, 4 */

/* A set of cards, one bit a card index. */
typedef unsigned __int128 SkSet;
#define SK_BIT(c) ((SkSet)1 << (c))
static int sk_set_first(SkSet s) { /* the lowest index in a set that is not empty */
    uint64_t low = (uint64_t)s;
    return low ? __builtin_ctzll(low) : 64 + __builtin_ctzll((uint64_t)(s >> 64));
}

enum { SK_T = 0, SK_F = 1, SK_W = 2, SK_S = 3, SK_R = 4 };
#define SK_RES 13

typedef struct {
    uint8_t col[SK_COLS][SK_COLLEN];
    uint8_t len[SK_COLS], hid[SK_COLS];
    uint8_t stock[SK_PILE], waste[SK_PILE];
    uint8_t nstock, nwaste;
    uint8_t reserve[SK_RES], nres;
    uint8_t fsuit[SK_FOUND], fcount[SK_FOUND];
    uint64_t fslot[SK_FOUND]; /* bits 3k to 3k + 2: the slot of the pile's card at height k */
    int32_t rounds;
} SkState;

typedef struct {
    uint8_t sk, si, dk, di, count;
} SkMove;

typedef struct {
    int ncols, draw, redeals, policy, face_up_runs, found_runs, found_return, limited;
    int narrow; /* stock.search's first, narrowed search (stock.narrowed says which moves) */
    int returns; /* stock.prunes_returns: leave out the cards taken back in vain */
    SkSet lying[SK_CARDS]; /* with returns: the cards that may lie on each (rules.build) */
    int base;   /* the rank every foundation starts from (1: the Ace); they wrap unless 1 */
    int one_or_all, fill_empty; /* tableau.move_limit "one-or-all"; reserve.fill_empty */
    int row, row_onto_empty, nrow; /* a stock dealt in rows: onto row_cols, in order */
    uint8_t row_cols[SK_COLS];
    int complete; /* foundations.only_complete_suits: King to Ace in suit, at once */
    int single;   /* tableau.move_limit "one": one card at a time between columns */
    int freeze;   /* stock.freezes_waste: sk_frozen asked where the waste keeps its order */
    SkSet onto[SK_CARDS], lower[SK_CARDS]; /* with freeze: the cards each builds on, and
                                              those of its suit below it from the base */
    int decks, ncards, nfound, keylen; /* 1 or 2 decks: 52 or 104 cards, 4 or 8 piles */
    /* Cards come in slots of 13, Ace to King, each slot of one suit: a deck's four suits,
       or in Spider with one or two suits the same suit in several slots (the copies of a
       card are the cards of its rank in the slots of its suit). */
    uint8_t suit_c[SK_CARDS]; /* each card's suit */
    int blind;       /* the narrowed search keys the columns' cards by class, */
    uint8_t cls[SK_CARDS]; /* each card's class under the build rule (stock.build_classes) */
    uint8_t build[SK_CARDS][SK_CARDS], run[SK_CARDS][SK_CARDS], empty_ok[SK_CARDS];
    SkSet wanting[SK_CARDS];
} SkRules;

/* A stored position, packed: the counts, then (two decks only) each foundation's slots,
 * then the cards of the columns one after the other, the stock's, the waste's and the
 * reserve's (at most the decks' cards not up). Nodes lie SkTable.stride bytes apart:
 * about 110 a position for one deck, 230 for two. */
typedef struct {
    int32_t parent;
    int32_t rounds;
    uint16_t deals; /* stock moves (deals and redeals) of the line that led here */
    uint8_t has_move;
    SkMove move;
    uint8_t len[SK_COLS], hid[SK_COLS];
    uint8_t nstock, nwaste, nres;
    uint8_t fsuit[SK_FOUND], fcount[SK_FOUND];
    uint8_t tail[];
} SkNode;

/* The bytes a stored node takes for ``r``'s game, a multiple of 8. */
static size_t sk_stride(const SkRules *r) {
    size_t size = sizeof(SkNode) + (r->decks > 1 ? sizeof(uint64_t) * SK_FOUND : 0) +
                  (size_t)r->ncards;
    return (size + 7) & ~(size_t)7;
}

static void sk_pack(const SkRules *r, const SkState *s, SkNode *p) {
    uint8_t *cards = p->tail;
    if (r->decks > 1) {
        memcpy(p->tail, s->fslot, sizeof s->fslot);
        cards += sizeof s->fslot;
    }
    int off = 0;
    for (int i = 0; i < r->ncols; i++) {
        memcpy(cards + off, s->col[i], s->len[i]);
        off += s->len[i];
    }
    memcpy(cards + off, s->stock, s->nstock);
    off += s->nstock;
    memcpy(cards + off, s->waste, s->nwaste);
    off += s->nwaste;
    memcpy(cards + off, s->reserve, s->nres);
    memcpy(p->len, s->len, SK_COLS);
    memcpy(p->hid, s->hid, SK_COLS);
    p->nstock = s->nstock;
    p->nwaste = s->nwaste;
    p->nres = s->nres;
    memcpy(p->fsuit, s->fsuit, SK_FOUND);
    memcpy(p->fcount, s->fcount, SK_FOUND);
    p->rounds = s->rounds;
}

static void sk_unpack(const SkRules *r, const SkNode *p, SkState *s) {
    const uint8_t *cards = p->tail;
    if (r->decks > 1) {
        memcpy(s->fslot, p->tail, sizeof s->fslot);
        cards += sizeof s->fslot;
    } else { /* one deck: slot k holds suit k */
        for (int j = 0; j < 4; j++) {
            /* the suit repeated in each of the 13 three-bit fields */
            s->fslot[j] = p->fsuit[j] * 0x1249249249ULL;
        }
    }
    int off = 0;
    for (int i = 0; i < r->ncols; i++) {
        memcpy(s->col[i], cards + off, p->len[i]);
        off += p->len[i];
    }
    memcpy(s->stock, cards + off, p->nstock);
    off += p->nstock;
    memcpy(s->waste, cards + off, p->nwaste);
    off += p->nwaste;
    memcpy(s->reserve, cards + off, p->nres);
    memcpy(s->len, p->len, SK_COLS);
    memcpy(s->hid, p->hid, SK_COLS);
    s->nstock = p->nstock;
    s->nwaste = p->nwaste;
    s->nres = p->nres;
    memcpy(s->fsuit, p->fsuit, SK_FOUND);
    memcpy(s->fcount, p->fcount, SK_FOUND);
    s->rounds = p->rounds;
}

static inline int sk_suit(const SkRules *r, int c) { return r->suit_c[c]; }
static int sk_rank(int c) { return c % 13 + 1; }

/* The rank of the card at height k (0 the bottom) of a foundation: up from the base
 * rank, wrapping from the King to the Ace (Canfield, PySolFC game 105). */
static int sk_frank(const SkRules *r, int k) { return (r->base - 1 + k) % 13 + 1; }

/* The card on top of foundation j (which holds cards). */
static int sk_ftop(const SkRules *r, const SkState *s, int j) {
    int k = s->fcount[j] - 1;
    return (int)(s->fslot[j] >> 3 * k & 7) * 13 + sk_frank(r, k) - 1;
}

/* rules.pile_accepts for one deck and in-suit piles: the base rank on an empty pile (a
 * suit's base card is still in play only while no pile holds that suit), else the next
 * rank of the pile's suit. */
static inline int sk_fits(const SkRules *r, const SkState *s, int j, int card) {
    if (!s->fcount[j]) return sk_rank(card) == r->base;
    return s->fcount[j] < 13 && s->fsuit[j] == sk_suit(r, card) &&
           sk_frank(r, s->fcount[j]) == sk_rank(card);
}

static int sk_home(const SkRules *r, const SkState *s, int card) { /* stock._home */
    for (int j = 0; j < r->nfound; j++)
        if (sk_fits(r, s, j, card)) return j;
    return -1;
}

/* sk_home for every card at once: ``home[suit][rank]`` is the first foundation that takes
 * the card of that suit and rank now, or -1 (the piles taken from the last, so that the
 * first that fits is the one left). */
static void sk_homes(const SkRules *r, const SkState *s, int8_t home[4][14]) {
    memset(home, -1, 4 * 14);
    for (int j = r->nfound - 1; j >= 0; j--) {
        if (!s->fcount[j])
            for (int suit = 0; suit < 4; suit++) home[suit][r->base] = (int8_t)j;
        else if (s->fcount[j] < 13)
            home[s->fsuit[j]][sk_frank(r, s->fcount[j])] = (int8_t)j;
    }
}

static void sk_push_found(const SkRules *r, SkState *s, int j, int card) {
    if (!s->fcount[j]) {
        s->fsuit[j] = (uint8_t)sk_suit(r, card);
        s->fslot[j] = 0;
    }
    s->fslot[j] |= (uint64_t)(card / 13) << 3 * s->fcount[j];
    s->fcount[j]++;
}

/* rules._play (and _play_stock) of a legal move. */
static void sk_play(const SkRules *r, SkState *s, const SkMove *m) {
    if (m->sk == SK_S && m->dk == SK_T) { /* a row: one card on each row column in turn */
        for (int k = 0; k < r->nrow && s->nstock; k++) {
            int i = r->row_cols[k];
            s->col[i][s->len[i]++] = s->stock[--s->nstock];
        }
        return;
    }
    if (m->sk == SK_S) { /* deal */
        int n = r->draw < s->nstock ? r->draw : s->nstock;
        for (int k = 0; k < n; k++) s->waste[s->nwaste++] = s->stock[--s->nstock];
        return;
    }
    if (m->dk == SK_S) { /* redeal */
        for (int k = 0; k < s->nwaste; k++) s->stock[k] = s->waste[s->nwaste - 1 - k];
        s->nstock = s->nwaste;
        s->nwaste = 0;
        s->rounds++;
        return;
    }
    uint8_t moving[SK_COLLEN];
    int n = m->count;
    if (m->sk == SK_T) {
        int i = m->si;
        memcpy(moving, &s->col[i][s->len[i] - n], (size_t)n);
        s->len[i] -= (uint8_t)n;
        if (s->hid[i] && s->hid[i] >= s->len[i]) s->hid[i] = s->len[i] ? s->len[i] - 1 : 0;
    } else if (m->sk == SK_W) {
        moving[0] = s->waste[--s->nwaste];
    } else if (m->sk == SK_R) {
        moving[0] = s->reserve[--s->nres];
    } else {
        int j = m->si;
        moving[0] = (uint8_t)sk_ftop(r, s, j);
        s->fcount[j]--;
        s->fslot[j] &= ~((uint64_t)7 << 3 * s->fcount[j]);
    }
    if (m->dk == SK_T) {
        int d = m->di;
        memcpy(&s->col[d][s->len[d]], moving, (size_t)n);
        s->len[d] += (uint8_t)n;
    } else {
        for (int k = n - 1; k >= 0; k--) sk_push_found(r, s, m->di, moving[k]);
    }
    if (m->sk == SK_T && r->fill_empty && s->nres && !s->len[m->si]) {
        /* the emptied column takes the reserve's top card within the same move (rules._play;
           PySolFC's Canfield.fillStack) */
        s->col[m->si][0] = s->reserve[--s->nres];
        s->len[m->si] = 1;
    }
}

static int sk_realigns(const SkRules *r, const SkState *s) { /* rules.waste_realigns */
    return r->draw > 1 && (r->redeals < 0 || r->redeals > s->rounds);
}

static SkSet sk_up(const SkRules *r, const SkState *s) {
    SkSet up = 0;
    for (int j = 0; j < r->nfound; j++)
        for (int k = 0; k < s->fcount[j]; k++)
            up |= SK_BIT((int)(s->fslot[j] >> 3 * k & 7) * 13 + sk_frank(r, k) - 1);
    return up;
}

/* rules._copies_have_places with hidden cards: every copy of ``card`` not up has a pile
 * that takes it now (two decks). */
static int sk_copies_have_places(const SkRules *r, const SkState *s, SkSet up, int card) {
    int in_play = 0, suit = sk_suit(r, card);
    for (int k = 0; k < r->ncards / 13; k++)
        if (r->suit_c[k * 13] == suit) in_play += !(up >> (k * 13 + card % 13) & 1);
    if (in_play <= 1) return 1;
    int taking = 0;
    for (int j = 0; j < r->nfound; j++) taking += sk_fits(r, s, j, card);
    return taking >= in_play;
}

/* rules.is_safe_to_foundation for in-suit piles. */
static int sk_safe(const SkRules *r, const SkState *s, int card) {
    SkSet up = sk_up(r, s);
    if (r->decks > 1 && !sk_copies_have_places(r, s, up, card)) return 0;
    if (!r->found_return) return (r->wanting[card] & ~up) == 0;
    /* _wanted_back: the cards that may lie on it, and through cards up on those */
    up |= SK_BIT(card);
    SkSet seen = SK_BIT(card), todo = SK_BIT(card);
    while (todo) {
        int c = sk_set_first(todo);
        todo &= todo - 1;
        SkSet w = r->wanting[c];
        if (w & ~up) return 0;
        w &= ~seen;
        seen |= w;
        todo |= w;
    }
    return 1;
}

/* rules.autoplay_moves, its general path (the games with face-down cards): 1 if a card
 * went up. */
/* Whether the face-up cards of column i end with a complete suit, King down to the Ace
 * on top (rules.complete_suit). */
static int sk_complete_top(const SkRules *r, const SkState *s, int i) {
    int len = s->len[i];
    if (len - s->hid[i] < 13) return 0;
    const uint8_t *run = &s->col[i][len - 13];
    for (int k = 0; k < 13; k++)
        if (sk_suit(r, run[k]) != sk_suit(r, run[0]) || sk_rank(run[k]) != 13 - k) return 0;
    return 1;
}

/* rules._safe_run: no card out of the foundations but the run's own may lie on one of
 * the run's cards. */
static int sk_safe_run(const SkRules *r, const SkState *s, int i) {
    SkSet keep = sk_up(r, s);
    for (int k = 0; k < 13; k++) keep |= SK_BIT(s->col[i][s->len[i] - 1 - k]);
    for (int k = 0; k < 13; k++)
        if (r->wanting[s->col[i][s->len[i] - 1 - k]] & ~keep) return 0;
    return 1;
}

/* rules.autoplay_moves with foundations.only_complete_suits: the first complete suit
 * (safe, or under "all" any) goes up to the first empty pile, and again. */
static int sk_autoplay_suits(const SkRules *r, SkState *s) {
    int made = 0, progress = 1;
    while (progress) {
        progress = 0;
        for (int i = 0; i < r->ncols && !progress; i++) {
            if (!sk_complete_top(r, s, i) || (r->policy != AUTO_ALL && !sk_safe_run(r, s, i)))
                continue;
            for (int j = 0; j < r->nfound; j++) {
                if (s->fcount[j]) continue;
                SkMove m = {SK_T, (uint8_t)i, SK_F, (uint8_t)j, 13};
                sk_play(r, s, &m);
                made = progress = 1;
                break;
            }
        }
    }
    return made;
}

static int sk_autoplay(const SkRules *r, SkState *s) {
    if (r->policy == AUTO_OFF) return 0;
    if (r->complete) return sk_autoplay_suits(r, s);
    int made = 0, progress = 1;
    int8_t home[4][14];
    while (progress) {
        progress = 0;
        sk_homes(r, s, home); /* the piles changed: once a sweep, not once a card */
        for (int i = 0; i <= r->ncols + 1; i++) {
            int card;
            SkMove m;
            if (i < r->ncols) {
                if (!s->len[i] || s->hid[i] >= s->len[i]) continue;
                card = s->col[i][s->len[i] - 1];
                m.sk = SK_T;
                m.si = (uint8_t)i;
            } else if (i == r->ncols) {
                if (!s->nwaste || (r->policy != AUTO_ALL && sk_realigns(r, s))) continue;
                card = s->waste[s->nwaste - 1];
                m.sk = SK_W;
                m.si = 0;
            } else {
                if (!s->nres) continue;
                card = s->reserve[s->nres - 1];
                m.sk = SK_R;
                m.si = 0;
            }
            int target = home[sk_suit(r, card)][sk_rank(card)];
            if (target < 0) continue;
            if (r->policy == AUTO_ALL || sk_safe(r, s, card)) {
                m.dk = SK_F;
                m.di = (uint8_t)target;
                m.count = 1;
                sk_play(r, s, &m);
                made = 1;
                progress = 1;
                break;
            }
        }
    }
    return made;
}

static int sk_score(const SkRules *r, const SkState *s) {
    int found = 0, down = 0, empty = 0, suited = 0;
    for (int j = 0; j < r->nfound; j++) found += s->fcount[j];
    for (int i = 0; i < r->ncols; i++) {
        down += s->hid[i];
        empty += !s->len[i];
        if (r->complete) /* face-up cards on the next higher card of their suit */
            for (int k = s->hid[i] + 1; k < s->len[i]; k++) {
                int below = s->col[i][k - 1], card = s->col[i][k];
                suited += sk_suit(r, below) == sk_suit(r, card) && sk_rank(below) == sk_rank(card) + 1;
            }
    }
    int score = 40 * found - 12 * down - 2 * s->nwaste - 20 * s->nres;
    if (r->complete) return score + 10 * suited + 15 * empty + 5 * s->nstock;
    return score - 2 * s->nstock + 2 * empty;
}

/* stock.frozen_cards of a position whose waste keeps its order (stock.waste_fixed), one
 * deck (stock.freezes): whether some card of the columns or the waste can never move.
 * The greatest set S of such cards that cannot start an empty column, each with a lower
 * card of its suit (counted from the base rank) under a card of S, every card it builds
 * on under a card of S, and, in a column, every face-up card under it in S; worked out
 * from all such cards down, as frozen_cards does, on sets of cards (SkRules.onto and
 * .lower). stock.py's docstring gives the argument. */
static int sk_frozen(const SkRules *r, const SkState *s) {
    SkSet below[SK_CARDS], up_below[SK_CARDS]; /* the cards under each, and the face-up */
    SkSet stuck = 0;
    for (int i = 0; i <= r->ncols; i++) { /* pile ncols: the waste */
        int n = i < r->ncols ? s->len[i] : s->nwaste, hid = i < r->ncols ? s->hid[i] : n;
        const uint8_t *cards = i < r->ncols ? s->col[i] : s->waste;
        SkSet under = 0, up = 0;
        for (int j = 0; j < n; j++) {
            int c = cards[j];
            below[c] = under;
            up_below[c] = up;
            under |= SK_BIT(c);
            if (j >= hid) up |= SK_BIT(c);
            if (!r->empty_ok[c]) stuck |= SK_BIT(c);
        }
    }
    while (stuck) {
        SkSet buried = 0, keep = 0;
        for (SkSet w = stuck; w; w &= w - 1) buried |= below[sk_set_first(w)];
        for (SkSet w = stuck; w; w &= w - 1) {
            int c = sk_set_first(w);
            if ((r->lower[c] & buried) && !(r->onto[c] & ~buried) && !(up_below[c] & ~stuck))
                keep |= SK_BIT(c);
        }
        if (keep == stuck) break;
        stuck = keep;
    }
    return stuck != 0;
}

static int sk_won(const SkRules *r, const SkState *s) {
    int up = 0;
    for (int j = 0; j < r->nfound; j++) up += s->fcount[j];
    return up == r->ncards;
}

/* rules.canonical_key's equality: columns sorted with their face-down counts, the stock,
 * the waste, the foundations as cards per suit (with two decks, the piles sorted, each
 * by its count, suit and which deck each card is from), the redeals used while limited.
 * Fills r->keylen bytes. */
static void sk_key(const SkRules *r, const SkState *s, uint8_t *key) {
    int order[SK_COLS];
    const uint8_t *col[SK_COLS];
    uint8_t classes[SK_COLS][SK_COLLEN]; /* the blind key's columns (cards by class) */
    for (int i = 0; i < r->ncols; i++) {
        order[i] = i;
        col[i] = s->col[i];
        if (r->blind) {
            for (int k = 0; k < s->len[i]; k++) classes[i][k] = r->cls[s->col[i][k]];
            col[i] = classes[i];
        }
    }
    /* a row still to come tells the columns apart (each gets its own card): keep them */
    int sorted = !(r->row && s->nstock);
    for (int a = 1; sorted && a < r->ncols; a++) { /* insertion sort on (hidden, length, cards) */
        int x = order[a], b = a - 1;
        while (b >= 0) {
            int y = order[b], c;
            if (s->hid[y] != s->hid[x])
                c = s->hid[y] - s->hid[x];
            else if (s->len[y] != s->len[x])
                c = s->len[y] - s->len[x];
            else
                c = memcmp(col[y], col[x], s->len[x]);
            if (c <= 0) break;
            order[b + 1] = y;
            b--;
        }
        order[b + 1] = x;
    }
    memset(key, 0, (size_t)r->keylen);
    int p = 0;
    for (int a = 0; a < r->ncols; a++) {
        int i = order[a];
        key[p++] = s->hid[i];
        key[p++] = s->len[i];
        memcpy(key + p, col[i], s->len[i]);
        p += s->len[i];
    }
    key[p++] = s->nstock;
    memcpy(key + p, s->stock, s->nstock);
    p += s->nstock;
    key[p++] = s->nwaste;
    memcpy(key + p, s->waste, s->nwaste);
    p += s->nwaste;
    key[p++] = s->nres;
    memcpy(key + p, s->reserve, s->nres);
    p += s->nres;
    if (r->decks == 1) {
        uint8_t per[4] = {0, 0, 0, 0};
        for (int j = 0; j < 4; j++)
            if (s->fcount[j]) per[s->fsuit[j]] = s->fcount[j];
        memcpy(key + p, per, 4);
        p += 4;
    } else {
        uint64_t piles[SK_FOUND]; /* count, suit, slots: one number each, then sorted */
        for (int j = 0; j < r->nfound; j++)
            piles[j] = s->fcount[j] ? (uint64_t)s->fcount[j] << 56 | (uint64_t)s->fsuit[j] << 48 |
                                          s->fslot[j]
                                    : 0;
        for (int a = 1; a < r->nfound; a++) {
            uint64_t x = piles[a];
            int b = a - 1;
            while (b >= 0 && piles[b] > x) {
                piles[b + 1] = piles[b];
                b--;
            }
            piles[b + 1] = x;
        }
        memcpy(key + p, piles, sizeof(uint64_t) * (size_t)r->nfound);
        p += 8 * r->nfound;
    }
    int rounds = r->limited ? s->rounds : 0;
    memcpy(key + p, &rounds, sizeof rounds);
}

typedef struct {
    char *nodes; /* SkNode, stride bytes apart (sk_stride) */
    size_t stride;
    size_t count, cap;
    uint64_t *slots; /* the key's 32-bit hash << 32 | node index + 1; 0 for empty */
    size_t mask;
    const SkRules *rules;
} SkTable;

#define SK_NODE(t, i) ((SkNode *)((t)->nodes + (size_t)(i) * (t)->stride))

static uint64_t sk_hash(const uint8_t *key, int len) {
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < len; i += 8) h = mix64(h ^ load64le(key + i)) + 0x9e3779b97f4a7c15ULL;
    return h;
}

/* 1 when new (stored as node ``count``, its state left to the caller), 0 when stored
 * before, -1 without memory. Keys are not kept: a stored node's key is made again from
 * its state when the 32-bit hashes agree. */
static int sk_add(SkTable *t, const uint8_t *key) {
    if ((t->count + 1) * 2 > t->mask + 1) {
        size_t size = (t->mask + 1) * 2;
        uint64_t *bigger = PyMem_RawCalloc(size, sizeof(uint64_t));
        if (!bigger) return -1;
        for (size_t i = 0; i <= t->mask; i++) {
            uint64_t v = t->slots[i];
            if (!v) continue;
            size_t h = (size_t)(v >> 32) & (size - 1);
            while (bigger[h]) h = (h + 1) & (size - 1);
            bigger[h] = v;
        }
        PyMem_RawFree(t->slots);
        t->slots = bigger;
        t->mask = size - 1;
    }
    if (t->count == t->cap) {
        size_t cap = t->cap * 2;
        char *nodes = PyMem_RawRealloc(t->nodes, cap * t->stride);
        if (!nodes) return -1;
        t->nodes = nodes;
        t->cap = cap;
    }
    uint32_t fp = (uint32_t)sk_hash(key, t->rules->keylen);
    size_t h = fp & t->mask;
    uint8_t other[SK_KEY];
    while (t->slots[h]) {
        uint64_t v = t->slots[h];
        if ((uint32_t)(v >> 32) == fp) {
            SkState st;
            sk_unpack(t->rules, SK_NODE(t, (uint32_t)v - 1), &st);
            sk_key(t->rules, &st, other);
            if (!memcmp(other, key, (size_t)t->rules->keylen)) return 0;
        }
        h = (h + 1) & t->mask;
    }
    t->slots[h] = (uint64_t)fp << 32 | (uint64_t)(t->count + 1);
    t->count++;
    return 1;
}

typedef struct {
    int64_t score, tick;
    int32_t node;
} SkEntry;

typedef struct {
    SkEntry *a;
    size_t n, cap;
} SkHeap;

static int sk_before(const SkEntry *x, const SkEntry *y) {
    return x->score != y->score ? x->score > y->score : x->tick > y->tick;
}

static int sk_heap_push(SkHeap *h, SkEntry e) {
    if (h->n == h->cap) {
        size_t cap = h->cap ? h->cap * 2 : 1024;
        SkEntry *a = PyMem_RawRealloc(h->a, cap * sizeof(SkEntry));
        if (!a) return -1;
        h->a = a;
        h->cap = cap;
    }
    size_t i = h->n++;
    while (i) {
        size_t p = (i - 1) / 2;
        if (!sk_before(&e, &h->a[p])) break;
        h->a[i] = h->a[p];
        i = p;
    }
    h->a[i] = e;
    return 0;
}

static SkEntry sk_heap_pop(SkHeap *h) {
    SkEntry top = h->a[0], last = h->a[--h->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n) break;
        if (c + 1 < h->n && sk_before(&h->a[c + 1], &h->a[c])) c++;
        if (!sk_before(&h->a[c], &last)) break;
        h->a[i] = h->a[c];
        i = c;
    }
    if (h->n) h->a[i] = last;
    return top;
}

static SkMove sk_mv(int sk, int si, int dk, int di, int count) {
    SkMove m = {(uint8_t)sk, (uint8_t)si, (uint8_t)dk, (uint8_t)di, (uint8_t)count};
    return m;
}

/* rules.legal_moves without the stock's move, in its order: foundation moves first (the
 * columns', the waste's, the reserve's), then moves onto the columns (each column's runs
 * by target column then size, the waste's card, the reserve's top card, the foundations'
 * top cards). */
#define SK_MAXCHILD 512

/* stock._return_in_vain: 1 if taking ``card`` back from its foundation is of no use: from
 * it, walking to the cards that may lie on it and to the card under it in its suit, through
 * cards up only, no card is reached that a card face up and not up (a column's, the
 * stock's or the waste's) may lie on. One deck only (stock._lying_on). ``up``: the cards
 * on the foundations (sk_up); ``down``: the face-down cards (sk_down), both worked out
 * once per position by the caller. */
static int sk_return_in_vain(const SkRules *r, SkSet up, SkSet down, int card) {
    up &= ~SK_BIT(card);
    SkSet seen = SK_BIT(card), todo = seen;
    while (todo) {
        int low = sk_set_first(todo);
        todo &= todo - 1;
        if (r->lying[low] & ~up & ~down) return 0;
        SkSet next = r->lying[low];
        if (sk_rank(low) > 1) next |= SK_BIT(low - 1);
        next &= up & ~seen;
        seen |= next;
        todo |= next;
    }
    return 1;
}

/* The face-down cards of the columns. */
static SkSet sk_down(const SkRules *r, const SkState *s) {
    SkSet down = 0;
    for (int i = 0; i < r->ncols; i++)
        for (int k = 0; k < s->hid[i]; k++) down |= SK_BIT(s->col[i][k]);
    return down;
}

/* Whether column j takes ``card`` now (on its top card, or empty). */
static inline int sk_takes(const SkRules *r, const SkState *s, int j, int card) {
    return s->len[j] ? r->build[card][s->col[j][s->len[j] - 1]] : r->empty_ok[card];
}

/* Whether some column takes ``card`` now. */
static int sk_column_takes(const SkRules *r, const SkState *s, int card) {
    for (int j = 0; j < r->ncols; j++)
        if (sk_takes(r, s, j, card)) return 1;
    return 0;
}

/* Append move m to ``out`` (SK_MAXCHILD moves at most: -1 past that). */
#define SK_OUT(m)                                                                          \
    do {                                                                                   \
        if (n >= SK_MAXCHILD) return -1;                                                   \
        out[n++] = (m);                                                                    \
    } while (0)

/* ``only``: -1 every move; in a block (sk_block), the moves it may make, in the same
 * order: -2 the cards taken back only, j >= 0 those and the moves onto column j. */
static int sk_legal(const SkRules *r, const SkState *s, SkMove *out, int only) {
    int n = 0, nc = r->ncols, sets = 0;
    SkSet up = 0, down = 0; /* for sk_return_in_vain, worked out when first needed */
    int8_t home[4][14];     /* sk_home of every card, for the narrowed moves */
    if (r->narrow) sk_homes(r, s, home);
    for (int i = 0; i < nc && only == -1; i++) { /* to the foundations */
        int len = s->len[i];
        if (!len || s->hid[i] >= len) continue;
        if (r->complete) { /* a complete suit to every empty pile; no single card */
            if (sk_complete_top(r, s, i))
                for (int j = 0; j < r->nfound; j++)
                    if (!s->fcount[j]) SK_OUT(sk_mv(SK_T, i, SK_F, j, 13));
            continue;
        }
        int top = s->col[i][len - 1];
        for (int j = 0; j < r->nfound; j++) {
            if (!sk_fits(r, s, j, top)) continue;
            SK_OUT(sk_mv(SK_T, i, SK_F, j, 1));
            if (r->found_runs) { /* the Ace as the base only (stock.native_unsupported) */
                int k = 1, face = len - s->hid[i];
                while (k < face) {
                    int upper = s->col[i][len - k - 1], lower = s->col[i][len - k];
                    if (sk_suit(r, upper) != sk_suit(r, lower) || sk_rank(upper) != sk_rank(lower) + 1)
                        break;
                    k++;
                    SK_OUT(sk_mv(SK_T, i, SK_F, j, k));
                }
            }
        }
    }
    for (int src = 0; src < 2 && !r->complete && only == -1; src++) { /* the waste's, the reserve's top */
        if (src ? !s->nres : !s->nwaste) continue;
        int card = src ? s->reserve[s->nres - 1] : s->waste[s->nwaste - 1];
        for (int j = 0; j < r->nfound; j++)
            if (sk_fits(r, s, j, card)) SK_OUT(sk_mv(src ? SK_R : SK_W, 0, SK_F, j, 1));
    }
    for (int i = 0; i < nc && only != -2; i++) { /* onto the columns */
        int len = s->len[i];
        if (!len || s->hid[i] >= len) continue;
        int face = len - s->hid[i], run = 1;
        if (r->face_up_runs)
            run = face;
        else
            while (run < face && r->run[s->col[i][len - run]][s->col[i][len - run - 1]]) run++;
        if (r->single) run = 1;
        for (int j = 0; j < nc; j++) {
            if (j == i || (only >= 0 && j != only)) continue;
            for (int k = 1; k <= run; k++) {
                int card = s->col[i][len - k];
                /* "one-or-all": one card or the whole column (PySolFC's Canfield_AC_RowStack) */
                if (r->one_or_all && k != 1 && k != len) continue;
                /* narrowed (stock._split_in_vain): part of a run moves only to send the
                 * card under it up; with complete suits, never; where any face-up card
                 * moves with the cards on it, the rule holds where it lies on a card it
                 * builds on */
                int under = k < len ? s->col[i][len - k - 1] : 0;
                if (r->narrow && (r->complete ? k < run
                                              : k < face && (!r->face_up_runs || r->build[card][under])
                                                    && home[sk_suit(r, under)][sk_rank(under)] < 0))
                    continue;
                if (sk_takes(r, s, j, card))
                    SK_OUT(sk_mv(SK_T, i, SK_T, j, k));
            }
        }
    }
    for (int src = -2; src < r->nfound; src++) {
        int card, kind = SK_F;
        if (src == -2) {
            if (!s->nwaste) continue;
            card = s->waste[s->nwaste - 1];
            kind = SK_W;
        } else if (src == -1) {
            if (!s->nres) continue;
            card = s->reserve[s->nres - 1];
            kind = SK_R;
        } else {
            if (!r->found_return || !s->fcount[src]) continue;
            card = sk_ftop(r, s, src);
            if (r->returns && sk_column_takes(r, s, card)) {
                if (!sets) { /* once per position, and only where a card can come back */
                    up = sk_up(r, s);
                    down = sk_down(r, s);
                    sets = 1;
                }
                if (sk_return_in_vain(r, up, down, card)) continue;
            }
        }
        for (int j = 0; j < nc; j++)
            if ((kind == SK_F || only == -1 || j == only) && sk_takes(r, s, j, card))
                SK_OUT(sk_mv(kind, src < 0 ? 0 : src, SK_T, j, 1));
    }
    return n;
}

/* stock._waste_moves */
static int sk_waste_moves(const SkRules *r, const SkState *s, SkMove *out) {
    int n = 0;
    if (!s->nwaste) return 0;
    int card = s->waste[s->nwaste - 1], home = sk_home(r, s, card);
    if (home >= 0) out[n++] = sk_mv(SK_W, 0, SK_F, home, 1);
    for (int j = 0; j < r->ncols; j++)
        if (sk_takes(r, s, j, card))
            out[n++] = sk_mv(SK_W, 0, SK_T, j, 1);
    return n;
}

/* rules.stock_moves: 1 with the deal or redeal in ``m``, 0 when there is none. */
static int sk_stock_move(const SkRules *r, const SkState *s, SkMove *m) {
    if (r->row) {
        if (!s->nstock) return 0;
        for (int k = 0; k < r->nrow && !r->row_onto_empty; k++)
            if (!s->len[r->row_cols[k]]) return 0;
        *m = sk_mv(SK_S, 0, SK_T, 0, 1);
        return 1;
    }
    if (s->nstock) {
        *m = sk_mv(SK_S, 0, SK_W, 0, 1);
        return 1;
    }
    if (s->nwaste && (r->redeals < 0 || r->redeals > s->rounds)) {
        *m = sk_mv(SK_W, 0, SK_S, 0, 1);
        return 1;
    }
    return 0;
}

/* session.play_resolved: the move, then autoplay unless a card came back. */
/* Append move m to the Python list line as the tuple (source kind, source index, target
   kind, target index, count); -1 with an exception set on failure. */
static int sk_append_move(PyObject *line, const SkMove *m) {
    PyObject *item = Py_BuildValue("(iiiii)", m->sk, m->si, m->dk, m->di, m->count);
    if (!item) return -1;
    int rc = PyList_Append(line, item);
    Py_DECREF(item);
    return rc;
}

static void sk_play_resolved(const SkRules *r, SkState *s, const SkMove *m) {
    sk_play(r, s, m);
    if (m->sk != SK_F) sk_autoplay(r, s);
}

#define SK_KIDS (SK_MAXCHILD * 16) /* children of one position: legal moves, then the
    chain's (SK_COLS + 1) waste moves after each of its stock moves, and the blocks' */
#define SK_MAXRET 52 /* cards taken back in one block: at most the cards up */
#define SK_BLOCK_STATES 64 /* stock.BLOCK_STATES */
#define SK_BLOCK_LINES 256 /* stock.BLOCK_LINES */

typedef struct {
    SkState st;
    uint16_t deals;
    uint8_t has_move; /* 0: deals alone; 1: deals, then ``move``; 2: a block: the ``nret``
                         cards taken back in ``ret``, the deals, then ``move`` */
    SkMove move;
    uint8_t nret;
    SkMove ret[SK_MAXRET];
} SkChild;

/* *d = *s, copying only the cards the piles hold (a position of two decks has room for
 * 104 cards in every column; the search copies one for every child it makes). */
static void sk_copy(const SkRules *r, SkState *d, const SkState *s) {
    for (int i = 0; i < r->ncols; i++) memcpy(d->col[i], s->col[i], s->len[i]);
    memcpy(d->len, s->len, sizeof d->len);
    memcpy(d->hid, s->hid, sizeof d->hid);
    memcpy(d->stock, s->stock, s->nstock);
    memcpy(d->waste, s->waste, s->nwaste);
    memcpy(d->reserve, s->reserve, s->nres);
    d->nstock = s->nstock;
    d->nwaste = s->nwaste;
    d->nres = s->nres;
    memcpy(d->fsuit, s->fsuit, sizeof d->fsuit);
    memcpy(d->fcount, s->fcount, sizeof d->fcount);
    memcpy(d->fslot, s->fslot, sizeof d->fslot);
    d->rounds = s->rounds;
}

/* out[n] = the position after move ``m`` (and ``deals`` deals before it) from ``s``, the
 * block's ``nret`` cards taken back in ``ret`` first (0: no block). */
static void sk_child(const SkRules *r, SkChild *out, const SkState *s, const SkMove *m,
                     int deals, const SkMove *ret, int nret) {
    sk_copy(r, &out->st, s);
    sk_play_resolved(r, &out->st, m);
    out->deals = (uint16_t)deals;
    out->has_move = nret ? 2 : 1;
    out->move = *m;
    out->nret = (uint8_t)nret;
    if (nret) memcpy(out->ret, ret, (size_t)nret * sizeof *ret);
}

/* stock.expand's chain (stock._chain) from ``s``: the deals and redeals, each move of the
 * waste's card after each, appended to ``out`` from ``n``; the new count, or -1 past
 * SK_KIDS. ``zcol`` >= 0 (stock._blocks): only the waste's card onto column ``zcol``, and
 * no line of deals alone; each child carries the block's ``nret`` cards ``ret``, and
 * -2 is returned where one would make more than ``cap`` children in all. */
static int sk_chain(const SkRules *r, const SkState *s, SkChild *out, int n, int zcol,
                    const SkMove *ret, int nret, int cap) {
    int seen_n = 0;
    int32_t seen[4 * (SK_PILE + 1)][3]; /* at most 53 a pass, 3 passes (stock.py checks) */
    SkState cur;
    sk_copy(r, &cur, s);
    seen[seen_n][0] = cur.nstock;
    seen[seen_n][1] = cur.nwaste;
    seen[seen_n][2] = r->limited ? cur.rounds : 0;
    seen_n++;
    int deals = 0;
    for (;;) {
        SkMove d;
        if (!sk_stock_move(r, &cur, &d)) return n;
        deals++;
        sk_play(r, &cur, &d);
        /* the whole table after the first deal (stock.expand says why), then the waste's
           new top card only */
        if (deals == 1 || (cur.nwaste && sk_home(r, &cur, cur.waste[cur.nwaste - 1]) >= 0)) {
            SkState played;
            sk_copy(r, &played, &cur);
            if (sk_autoplay(r, &played)) {
                if (zcol >= 0) return n;
                if (n >= SK_KIDS) return -1;
                sk_copy(r, &out[n].st, &played);
                out[n].deals = (uint16_t)deals;
                out[n].has_move = 0;
                out[n].nret = 0;
                n++;
                return n;
            }
        }
        int32_t w0 = cur.nstock, w1 = cur.nwaste, w2 = r->limited ? cur.rounds : 0;
        for (int a = 0; a < seen_n; a++)
            if (seen[a][0] == w0 && seen[a][1] == w1 && seen[a][2] == w2) return n;
        if (seen_n == (int)(sizeof seen / sizeof seen[0])) return -1; /* stock.py's checks */
        seen[seen_n][0] = w0;
        seen[seen_n][1] = w1;
        seen[seen_n][2] = w2;
        seen_n++;
        SkMove wm[SK_COLS + 2];
        int wn = sk_waste_moves(r, &cur, wm);
        if (zcol < 0 && n + wn > SK_KIDS) return -1;
        for (int a = 0; a < wn; a++)
            if (zcol < 0 || (wm[a].dk == SK_T && wm[a].di == zcol)) {
                if (n >= cap) return -2;
                sk_child(r, &out[n++], &cur, &wm[a], deals, ret, nret);
            }
    }
}

/* The positions a block has passed through (stock._blocks' ``seen``): the columns' cards
 * (a block moves cards from the foundations onto them only) and the cards left wanting. */
#define SK_BLOCKKEY (SK_COLS + 52 + 16)
typedef struct {
    int n;
    uint8_t key[SK_BLOCK_STATES][SK_BLOCKKEY];
} SkBlockSeen;

/* 1 if (``s``, ``pending``) was walked before in this block; else 0, remembering it, or
 * -2 where the block has passed through SK_BLOCK_STATES positions already. One deck. */
static int sk_block_seen(const SkRules *r, const SkState *s, SkSet pending, SkBlockSeen *seen) {
    uint8_t key[SK_BLOCKKEY];
    int k = (int)sizeof pending;
    memset(key, 0, sizeof key);
    memcpy(key, &pending, sizeof pending);
    for (int i = 0; i < r->ncols; i++) { /* one deck: 52 cards at most in all */
        key[k++] = s->len[i];
        memcpy(key + k, s->col[i], s->len[i]);
        k += s->len[i];
    }
    for (int a = 0; a < seen->n; a++)
        if (!memcmp(seen->key[a], key, sizeof key)) return 1;
    if (seen->n >= SK_BLOCK_STATES) return -2;
    memcpy(seen->key[seen->n++], key, sizeof key);
    return 0;
}

/* stock._blocks, from ``s`` after the block's ``nret`` cards taken back in ``ret``,
 * ``pending`` the cards taken back and left wanting: further cards taken back, each walked
 * on from at once, and where one card is left wanting, each move that puts a card on it
 * (the columns', the waste's after the chain's deals), appended to ``out`` from ``n``: the
 * new count; -1 past SK_KIDS, -2 where the block is too large (more than ``cap``
 * children in all, or SK_BLOCK_STATES positions passed through). */
static int sk_block(const SkRules *r, const SkState *s, SkSet pending, SkMove *ret, int nret,
                    SkChild *out, int n, int cap, SkBlockSeen *seen) {
    SkMove moves[SK_MAXCHILD];
    int single = pending && !(pending & (pending - 1)), zcol = -1;
    for (int j = 0; j < r->ncols && single && zcol < 0; j++)
        if (s->len[j] && pending == SK_BIT(s->col[j][s->len[j] - 1])) zcol = j;
    int k = sk_legal(r, s, moves, zcol >= 0 ? zcol : -2);
    if (k < 0) return -1;
    for (int a = 0; a < k && n >= 0; a++) {
        const SkMove *m = &moves[a];
        if (m->dk != SK_T) continue;
        int j = m->di, onto = s->len[j] ? s->col[j][s->len[j] - 1] : -1;
        if (m->sk == SK_F) {
            int card = sk_ftop(r, s, m->si);
            SkSet left = pending;
            if (onto >= 0) left &= ~SK_BIT(onto);
            if (sk_rank(card) < 13) left &= ~SK_BIT(card + 1);
            left |= SK_BIT(card);
            SkState after;
            sk_copy(r, &after, s);
            sk_play_resolved(r, &after, m); /* no autoplay after a card taken back */
            int was = sk_block_seen(r, &after, left, seen);
            if (was < 0) return was;
            if (was) continue;
            if (nret >= SK_MAXRET) return -1; /* more cards than are up: impossible */
            ret[nret] = *m;
            n = sk_block(r, &after, left, ret, nret + 1, out, n, cap, seen);
        } else if (single && onto >= 0 && pending == SK_BIT(onto)) {
            if (n >= cap) return -2;
            sk_child(r, &out[n++], s, m, 0, ret, nret);
        }
    }
    if (n < 0 || zcol < 0 || r->row) return n;
    /* the chain only where a card of the stock or the waste may lie on the card wanting */
    SkSet lie = r->lying[s->col[zcol][s->len[zcol] - 1]];
    int may = 0;
    for (int a = 0; a < s->nstock && !may; a++) may = (lie & SK_BIT(s->stock[a])) != 0;
    for (int a = 0; a < s->nwaste && !may; a++) may = (lie & SK_BIT(s->waste[a])) != 0;
    return may ? sk_chain(r, s, out, n, zcol, ret, nret, cap) : n;
}

/* stock.expand: the children of ``s`` in its order (-1: more than ``out`` holds, which
 * the limits stock.native_unsupported sets leave impossible). */
static int sk_expand(const SkRules *r, const SkState *s, SkChild *out) {
    SkMove moves[SK_MAXCHILD];
    int n = 0, k = sk_legal(r, s, moves, -1);
    if (k < 0) return -1; /* more moves than ``moves`` holds */
    for (int a = 0; a < k; a++) {
        if (r->returns && moves[a].sk == SK_F && moves[a].dk == SK_T) {
            /* a card taken back: the blocks it starts (stock._blocks) */
            SkMove ret[SK_MAXRET];
            SkBlockSeen seen;
            SkState after;
            SkSet pending = SK_BIT(sk_ftop(r, s, moves[a].si));
            int cap = n + SK_BLOCK_LINES;
            seen.n = 0;
            ret[0] = moves[a];
            sk_copy(r, &after, s);
            sk_play_resolved(r, &after, &moves[a]);
            sk_block_seen(r, &after, pending, &seen);
            int m = sk_block(r, &after, pending, ret, 1, out, n, cap < SK_KIDS ? cap : SK_KIDS, &seen);
            if (m == -1 || (m == -2 && cap > SK_KIDS)) return -1;
            if (m >= 0) {
                n = m;
                continue;
            } /* too large a block: the card taken back is a move like any other */
        }
        if (n >= SK_KIDS) return -1;
        sk_child(r, &out[n++], s, &moves[a], 0, NULL, 0);
    }
    if (r->row) { /* a row dealt is a move like any other (stock.expand folds no rows) */
        SkMove d;
        if (sk_stock_move(r, s, &d)) {
            if (n >= SK_KIDS) return -1;
            sk_child(r, &out[n++], s, &d, 0, NULL, 0);
        }
        return n;
    }
    return sk_chain(r, s, out, n, -1, NULL, 0, SK_KIDS);
}

static int sk_bytes(PyObject *o, uint8_t *dst, Py_ssize_t most, const char *what) {
    if (!PyBytes_Check(o) || PyBytes_GET_SIZE(o) > most) {
        PyErr_Format(PyExc_ValueError, "stock_search: bad %s", what);
        return -1;
    }
    memcpy(dst, PyBytes_AS_STRING(o), (size_t)PyBytes_GET_SIZE(o));
    return (int)PyBytes_GET_SIZE(o);
}

/* The player's moves from the start to stored node ``v``: the path from the start, then
 * each node's deals and move replayed from its parent. A new list, or NULL with an error
 * set. */
static PyObject *sk_line(const SkRules *r, const SkTable *t, int32_t v) {
    PyObject *line = PyList_New(0);
    if (!line) return NULL;
    size_t depth = 0;
    for (int32_t u = v; u > 0; u = SK_NODE(t, u)->parent) depth++;
    int32_t *path = PyMem_RawMalloc((depth + 1) * sizeof(int32_t));
    if (!path) {
        Py_DECREF(line);
        return PyErr_NoMemory();
    }
    size_t d = depth;
    for (int32_t u = v; u > 0; u = SK_NODE(t, u)->parent) path[--d] = u;
    SkChild *kids = NULL; /* the parent's children again, where a block led to a node */
    for (d = 0; d < depth; d++) {
        const SkNode *node = SK_NODE(t, path[d]);
        SkState cur;
        sk_unpack(r, SK_NODE(t, node->parent), &cur);
        int bad = 0;
        if (node->has_move == 2) {
            /* The cards the block took back are not stored: the first of the parent's
               children under the node's key is the one the search stored. */
            uint8_t want[SK_KEY], got[SK_KEY];
            SkState here;
            int nk = -1, a = 0;
            if (!kids) kids = PyMem_RawMalloc(SK_KIDS * sizeof(SkChild));
            if (!kids) PyErr_NoMemory();
            else nk = sk_expand(r, &cur, kids);
            sk_unpack(r, node, &here);
            sk_key(r, &here, want);
            for (; a < nk; a++) {
                sk_key(r, &kids[a].st, got);
                if (!memcmp(want, got, (size_t)r->keylen)) break;
            }
            if (a >= nk || kids[a].has_move != 2) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "stock_search: a block's line is lost");
                bad = 1;
            }
            for (int k = 0; !bad && k < kids[a].nret; k++) bad = sk_append_move(line, &kids[a].ret[k]) < 0;
        }
        for (int k = 0; k < node->deals && !bad; k++) {
            SkMove m;
            sk_stock_move(r, &cur, &m);
            sk_play(r, &cur, &m);
            bad = sk_append_move(line, &m) < 0;
        }
        if (bad || (node->has_move && sk_append_move(line, &node->move) < 0)) {
            Py_DECREF(line);
            PyMem_RawFree(path);
            PyMem_RawFree(kids);
            return NULL;
        }
    }
    PyMem_RawFree(path);
    PyMem_RawFree(kids);
    return line;
}

/* Whether each of the n card indexes at ``cards`` is below ``ncards``. */
static int sk_within(const uint8_t *cards, int n, int ncards) {
    for (int k = 0; k < n; k++)
        if (cards[k] >= ncards) return 0;
    return 1;
}

static PyObject *py_stock_search(PyObject *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"columns", "hidden", "stock", "waste", "foundations", "rounds",
                            "draw", "redeals", "build", "run", "empty_ok", "wanting",
                            "face_up_runs", "foundation_runs", "foundation_return", "policy",
                            "max_states", "timeout", "cancel", "progress", "narrow",
                            "reserve", "base", "one_or_all", "fill_empty", "row_columns",
                            "row_onto_empty", "complete_suits", "classes", "single",
                            "slot_suits", "freeze", "returns", NULL};
    PyObject *columns, *hidden, *stock, *waste, *founds, *build, *run, *empty_ok, *wanting;
    PyObject *cancel = Py_None, *progress = Py_None, *reserve = NULL, *row_columns = NULL;
    int rounds, draw, redeals, fur, frun, fret, policy, narrow = 0;
    int base = 1, one_or_all = 0, fill_empty = 0, row_onto_empty = 1, complete = 0;
    int single = 0, freeze = 0, returns = 0;
    PyObject *slot_suits = NULL;
    PyObject *classes = NULL;
    long long max_states;
    double timeout;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!SSSO!iiiSSSO!pppiLd|OOpSippSppSpSpp", names,
                                     &PyTuple_Type, &columns, &hidden, &stock, &waste,
                                     &PyTuple_Type, &founds, &rounds, &draw, &redeals, &build,
                                     &run, &empty_ok, &PyTuple_Type, &wanting, &fur, &frun,
                                     &fret, &policy, &max_states, &timeout, &cancel, &progress,
                                     &narrow, &reserve, &base, &one_or_all, &fill_empty,
                                     &row_columns, &row_onto_empty, &complete, &classes,
                                     &single, &slot_suits, &freeze, &returns))
        return NULL;
    SkRules *r = PyMem_RawCalloc(1, sizeof(SkRules));
    SkTable t = {NULL, 0, 0, 1024, NULL, 1023, NULL};
    SkHeap heap = {NULL, 0, 0};
    SkChild *kids = NULL;
    PyObject *result = NULL;
    SkState start;
    memset(&start, 0, sizeof start);
    if (!r) return PyErr_NoMemory();
    Py_ssize_t nc = PyTuple_GET_SIZE(columns);
    /* one suit to each slot of 13 cards: a deck's four suits by default */
    Py_ssize_t nslots = slot_suits ? PyBytes_GET_SIZE(slot_suits) : 4;
    int decks = (int)(nslots / 4), ncards = 13 * (int)nslots;
    if (nslots % 4 || nslots > SK_SLOTS) decks = 0;
    for (Py_ssize_t k = 0; k < nslots && decks; k++) {
        uint8_t suit = slot_suits ? (uint8_t)PyBytes_AS_STRING(slot_suits)[k] : (uint8_t)k;
        if (suit > 3) decks = 0;
        memset(r->suit_c + 13 * k, suit, 13);
    }
    if (nc < 1 || nc > SK_COLS || decks < 1 || decks > 2 || PyBytes_GET_SIZE(hidden) != nc ||
        PyTuple_GET_SIZE(founds) != 4 * decks || PyTuple_GET_SIZE(wanting) != ncards ||
        PyBytes_GET_SIZE(build) != ncards * ncards || PyBytes_GET_SIZE(run) != ncards * ncards ||
        PyBytes_GET_SIZE(empty_ok) != ncards || draw < 1 || max_states < 1 || policy < 0 ||
        policy > 2 || base < 1 || base > 13 || (base != 1 && frun)) {
        PyErr_SetString(PyExc_ValueError, "stock_search: bad arguments");
        goto done;
    }
    r->ncols = (int)nc;
    r->draw = draw;
    r->redeals = redeals;
    r->limited = redeals >= 0;
    r->policy = policy;
    r->face_up_runs = fur;
    r->found_runs = frun;
    r->found_return = fret;
    r->narrow = narrow;
    r->base = base;
    r->one_or_all = one_or_all;
    r->fill_empty = fill_empty;
    r->row_onto_empty = row_onto_empty;
    r->complete = complete;
    r->single = single;
    r->decks = decks;
    /* one deck only: the test's argument (stock.freezes) */
    r->freeze = freeze && decks == 1 && redeals >= 0;
    for (int c = 0; r->freeze && c < ncards; c++)
        for (int o = 0; o < ncards; o++) {
            if (PyBytes_AS_STRING(build)[c * ncards + o]) r->onto[c] |= SK_BIT(o);
            if (r->suit_c[o] == r->suit_c[c] &&
                (sk_rank(o) - base + 13) % 13 < (sk_rank(c) - base + 13) % 13)
                r->lower[c] |= SK_BIT(o);
        }
    /* one deck built from the Ace only: the argument of stock.prunes_returns */
    r->returns = returns && decks == 1 && base == 1 && fret;
    for (int c = 0; r->returns && c < ncards; c++)
        for (int o = 0; o < ncards; o++)
            if (PyBytes_AS_STRING(build)[c * ncards + o]) r->lying[o] |= SK_BIT(c);
    r->ncards = ncards;
    r->nfound = 4 * decks;
    r->keylen = decks == 1 ? 96 : SK_KEY;
    if (narrow && classes && PyBytes_GET_SIZE(classes)) {
        if (PyBytes_GET_SIZE(classes) != ncards) {
            PyErr_SetString(PyExc_ValueError, "stock_search: bad classes");
            goto done;
        }
        r->blind = 1;
        for (int c = 0; c < ncards; c++) {
            r->cls[c] = (uint8_t)PyBytes_AS_STRING(classes)[c];
            if (r->cls[c] >= ncards) {
                PyErr_SetString(PyExc_ValueError, "stock_search: bad classes");
                goto done;
            }
        }
    }
    if (row_columns && PyBytes_GET_SIZE(row_columns)) { /* the stock deals rows onto these */
        Py_ssize_t nr = PyBytes_GET_SIZE(row_columns);
        if (nr < 1 || nr > nc) {
            PyErr_SetString(PyExc_ValueError, "stock_search: bad row_columns");
            goto done;
        }
        r->row = 1;
        r->nrow = (int)nr;
        for (Py_ssize_t k = 0; k < nr; k++) {
            uint8_t i = (uint8_t)PyBytes_AS_STRING(row_columns)[k];
            if (i >= nc) {
                PyErr_SetString(PyExc_ValueError, "stock_search: bad row_columns");
                goto done;
            }
            r->row_cols[k] = i;
        }
    }
    if (complete && (frun || fret || base != 1)) {
        PyErr_SetString(PyExc_ValueError, "stock_search: complete suits from the Ace only");
        goto done;
    }
    for (int a = 0; a < ncards; a++) { /* ncards x ncards, row by row */
        memcpy(r->build[a], PyBytes_AS_STRING(build) + a * ncards, (size_t)ncards);
        memcpy(r->run[a], PyBytes_AS_STRING(run) + a * ncards, (size_t)ncards);
    }
    memcpy(r->empty_ok, PyBytes_AS_STRING(empty_ok), (size_t)ncards);
    for (int c = 0; c < ncards; c++) {
        PyObject *w = PyTuple_GET_ITEM(wanting, c);
        if (!PyBytes_Check(w)) {
            PyErr_SetString(PyExc_ValueError, "stock_search: bad wanting");
            goto done;
        }
        for (Py_ssize_t k = 0; k < PyBytes_GET_SIZE(w); k++)
            r->wanting[c] |= SK_BIT((uint8_t)PyBytes_AS_STRING(w)[k] % ncards);
    }
    for (int i = 0; i < nc; i++) {
        int len = sk_bytes(PyTuple_GET_ITEM(columns, i), start.col[i], ncards - 14, "column");
        if (len < 0) goto done;
        start.len[i] = (uint8_t)len;
        start.hid[i] = (uint8_t)PyBytes_AS_STRING(hidden)[i];
    }
    int ns = sk_bytes(stock, start.stock, SK_PILE, "stock");
    int nw = sk_bytes(waste, start.waste, SK_PILE, "waste");
    if (ns < 0 || nw < 0) goto done;
    start.nstock = (uint8_t)ns;
    start.nwaste = (uint8_t)nw;
    if (reserve) {
        int nr = sk_bytes(reserve, start.reserve, SK_RES, "reserve");
        if (nr < 0) goto done;
        start.nres = (uint8_t)nr;
    }
    for (int j = 0; j < r->nfound; j++) {
        PyObject *f = PyTuple_GET_ITEM(founds, j);
        if (!PyBytes_Check(f) || PyBytes_GET_SIZE(f) > 13 ||
            !sk_within((const uint8_t *)PyBytes_AS_STRING(f), (int)PyBytes_GET_SIZE(f), ncards)) {
            PyErr_SetString(PyExc_ValueError, "stock_search: bad foundation");
            goto done;
        }
        start.fcount[j] = (uint8_t)PyBytes_GET_SIZE(f);
        start.fsuit[j] =
            start.fcount[j] ? (uint8_t)sk_suit(r, (uint8_t)PyBytes_AS_STRING(f)[0]) : 0;
        for (int k = 0; k < start.fcount[j]; k++)
            start.fslot[j] |= (uint64_t)((uint8_t)PyBytes_AS_STRING(f)[k] / 13) << 3 * k;
    }
    int total = start.nstock + start.nwaste + start.nres;
    for (int i = 0; i < nc; i++) total += start.len[i];
    if (total > ncards) { /* a stored position packs at most the decks' cards */
        PyErr_SetString(PyExc_ValueError, "stock_search: more cards out of the foundations than the decks hold");
        goto done;
    }
    int within = sk_within(start.stock, start.nstock, ncards) &&
                 sk_within(start.waste, start.nwaste, ncards) &&
                 sk_within(start.reserve, start.nres, ncards);
    for (int i = 0; i < nc; i++) within = within && sk_within(start.col[i], start.len[i], ncards);
    if (!within) {
        PyErr_SetString(PyExc_ValueError, "stock_search: a card index outside the decks");
        goto done;
    }
    start.rounds = rounds;
    t.rules = r;
    t.stride = sk_stride(r);
    t.nodes = PyMem_RawMalloc(t.cap * t.stride);
    t.slots = PyMem_RawCalloc(t.mask + 1, sizeof(uint64_t));
    kids = PyMem_RawMalloc(SK_KIDS * sizeof(SkChild));
    if (!t.nodes || !t.slots || !kids) {
        PyErr_NoMemory();
        goto done;
    }
    uint8_t key[SK_KEY];
    sk_key(r, &start, key);
    sk_add(&t, key);
    sk_pack(r, &start, SK_NODE(&t, 0));
    SK_NODE(&t, 0)->parent = -1;
    SK_NODE(&t, 0)->deals = 0;
    SK_NODE(&t, 0)->has_move = 0;
    const char *verdict = "unwinnable", *reason = "";
    int status = 0; /* 0 lost, 1 won, 2 stopped, 3 memory, 4 too many children */
    int stop = 0;
    int32_t won = -1;
    int64_t tick = 0;
    double deadline = timeout >= 0 ? now_seconds() + timeout : -1;
    int32_t best = 0; /* the stored position of the highest score, the first among equals */
    int best_score = sk_score(r, &start);
    SkEntry first = {best_score, 0, 0};
    if (sk_heap_push(&heap, first) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    while (heap.n && !status) {
        SkEntry e = sk_heap_pop(&heap);
        SkState here;
        sk_unpack(r, SK_NODE(&t, e.node), &here);
        int nk = sk_expand(r, &here, kids);
        if (nk < 0) {
            status = 4;
            break;
        }
        for (int a = 0; a < nk; a++) {
            sk_key(r, &kids[a].st, key);
            int fresh = sk_add(&t, key);
            if (fresh < 0) {
                status = 3;
                break;
            }
            if (!fresh) continue;
            int32_t id = (int32_t)(t.count - 1);
            SkNode *node = SK_NODE(&t, id);
            sk_pack(r, &kids[a].st, node);
            node->parent = e.node;
            node->deals = kids[a].deals;
            node->has_move = kids[a].has_move;
            node->move = kids[a].move;
            if (sk_won(r, &kids[a].st)) {
                status = 1;
                won = id;
                break;
            }
            long long stored = (long long)t.count;
            if (stored >= max_states) {
                status = 2;
                reason = "state budget";
                break;
            }
            if (stored % 500 == 0) {
                if (deadline >= 0 && now_seconds() > deadline) {
                    status = 2;
                    reason = "time budget";
                    break;
                }
                if (cancel != Py_None || (progress != Py_None && stored % 2000 == 0)) {
                    Py_BLOCK_THREADS
                    if (cancel != Py_None) {
                        PyObject *res = PyObject_CallNoArgs(cancel);
                        if (!res)
                            stop = -1;
                        else {
                            stop = PyObject_IsTrue(res);
                            Py_DECREF(res);
                        }
                    }
                    if (!stop && progress != Py_None && stored % 2000 == 0) {
                        PyObject *res = PyObject_CallFunction(progress, "L", stored);
                        if (!res)
                            stop = -1;
                        else
                            Py_DECREF(res);
                    }
                    Py_UNBLOCK_THREADS
                    if (stop) {
                        status = 2;
                        reason = "cancelled";
                        break;
                    }
                }
            }
            if (r->freeze && kids[a].st.rounds >= r->redeals && sk_frozen(r, &kids[a].st))
                continue; /* lost as it lies: stored, never searched from */
            int score = sk_score(r, &kids[a].st);
            if (score > best_score) {
                best_score = score;
                best = id;
            }
            tick--;
            SkEntry child = {score, -tick, id};
            if (sk_heap_push(&heap, child) < 0) {
                status = 3;
                break;
            }
        }
    }
    Py_END_ALLOW_THREADS
    if (stop < 0) goto done;
    if (status == 3) {
        PyErr_NoMemory();
        goto done;
    }
    if (status == 4) {
        PyErr_SetString(PyExc_RuntimeError, "stock_search: a position has too many children");
        goto done;
    }
    if (status == 1) verdict = "winnable";
    PyObject *line = status == 1 ? sk_line(r, &t, won) : PyList_New(0);
    if (!line) goto done;
    PyObject *best_line = sk_line(r, &t, best);
    if (!best_line) {
        Py_DECREF(line);
        goto done;
    }
    if (status == 2) verdict = "undecided";
    result = Py_BuildValue("(sNnsNi)", verdict, line, (Py_ssize_t)t.count, reason, best_line,
                           best_score);
done:
    PyMem_RawFree(r);
    PyMem_RawFree(t.nodes);
    PyMem_RawFree(t.slots);
    PyMem_RawFree(heap.a);
    PyMem_RawFree(kids);
    return result;
}

/* ---- the discard games' depth-first search (solver/discards.py in C) ------------------
 *
 * The same depth-first search as solitaire_core/solver/discards.py, position for position:
 * the moves of its options() in its order, the same cuts (owes_in_vain, stuck, a card
 * discarded at once when keeping it is not worth it), and positions stored under the same
 * equality as its key(). So both engines store the same positions in the same order and
 * return the same line; the tests compare them. Each level of the search holds a copy of
 * its position (about 2 kB) where the Python search takes a move back. Cards are numbered
 * suit * 16 + rank, Aces high (14), as discards.py numbers them; -1 is "no card" in a
 * pool. Arguments are checked by discards.py, which calls this, and again here. */

#define DS_COLS 16
#define DS_CARDS 52
#define DS_POOLS (DS_CARDS + 1)
#define DS_ROUNDS (DS_CARDS + 2)
#define DS_OPTS (2 * DS_COLS + 2)
#define DS_DISCARD (-1)
#define DS_DEAL (-2)
#define DS_RESOLVE (-3)

typedef struct {
    int32_t column, target, card, extra; /* as discards.py's move tuples */
    uint64_t kept, owed;                 /* the step's cards kept and owing a use */
} DsStep;

typedef struct {
    uint8_t len[DS_COLS];
    uint8_t base[DS_COLS]; /* the pool the column's hidden bottom comes from, 0: none */
    uint8_t cards[DS_COLS][DS_CARDS];
    uint8_t pool_len[DS_POOLS];
    int8_t pool[DS_POOLS][DS_COLS]; /* each pool's unplaced cards, sorted, -1: none */
    int stock_left, discarded;
    uint32_t fixed;
    uint32_t alive[4]; /* per suit, the ranks in play as bits */
    uint64_t kept, owed;
} DsState;

typedef struct {
    int n, nrow, to_discard, single, greedy;
    int row[DS_COLS];
    uint8_t deck[DS_CARDS]; /* deck[stock_left - 1] is dealt next */
    int nrounds[DS_CARDS + 1];
    int8_t ra_high[DS_CARDS + 1][4][DS_ROUNDS];
    uint32_t ra_later[DS_CARDS + 1][4][DS_ROUNDS];
    uint32_t aces_coming[DS_CARDS + 1];
} DsGame;

static uint32_t ds_group(const DsGame *g, const DsState *s) {
    int empty = 0;
    for (int j = 0; j < g->n; j++)
        if (!s->len[j] && !s->base[j]) empty = 1;
    if (!empty) return s->fixed;
    uint32_t bits = 0;
    for (int j = 0; j < g->n; j++)
        if (!s->base[j] && s->len[j] <= 1) bits |= 1u << j;
    return bits;
}

static int ds_unresolved(const DsGame *g, const DsState *s) {
    int empty = 0;
    for (int j = 0; j < g->n; j++) {
        if (!s->len[j]) {
            if (s->base[j]) return j;
            empty = 1;
        }
    }
    if (empty)
        for (int j = 0; j < g->n; j++)
            if (s->base[j] && s->len[j] == 1 && s->pool[s->base[j]][0] == -1) return j;
    return -1;
}

static int ds_worth_keeping(const DsGame *g, const DsState *s, int card) {
    int suit = card / 16, rank = card % 16;
    uint32_t below = s->alive[suit] & ((1u << rank) - 1);
    for (int k = 1; k < g->nrounds[s->stock_left]; k++) {
        int least = g->ra_high[s->stock_left][suit][k];
        uint32_t later = g->ra_later[s->stock_left][suit][k];
        if (least < rank && ((below & ~later) >> (least > 0 ? least : 0))) return 1;
    }
    return 0;
}

/* discards.py's options(): the steps from here in the order to try them. */
static int ds_options(const DsGame *g, const DsState *s, DsStep *out) {
    int n = g->n, count = 0;
    int j = ds_unresolved(g, s);
    if (j >= 0) {
        int p = s->base[j];
        for (int k = 0; k < s->pool_len[p]; k++) {
            int v = s->pool[p][k];
            if (k && v == s->pool[p][k - 1]) continue;
            out[count++] = (DsStep){j, DS_RESOLVE, v, p, s->kept, s->owed};
        }
        return count;
    }
    int tops[DS_COLS];
    for (int i = 0; i < n; i++) tops[i] = s->len[i] ? s->cards[i][s->len[i] - 1] : -1;
    uint64_t declined = s->kept;
    for (int i = 0; i < n; i++) {
        int card = tops[i];
        if (card < 0 || card % 16 == 14) continue;
        int suit = card / 16, nover = 0, first = -1;
        for (int t = 0; t < n; t++)
            if (tops[t] > card && tops[t] / 16 == suit) {
                if (!nover) first = tops[t];
                nover++;
            }
        if (s->owed >> card & 1) {
            if (nover && !s->stock_left) return 0; /* it can never be used: lost */
            continue;
        }
        if (!nover || (s->kept >> card & 1)) continue;
        uint64_t paid = nover == 1 ? s->owed & ~(1ULL << first) : s->owed;
        if (g->greedy || !s->stock_left || !ds_worth_keeping(g, s, card)) {
            out[0] = (DsStep){i, DS_DISCARD, card, 0, s->kept, paid};
            return 1;
        }
        out[count++] = (DsStep){i, DS_DISCARD, card, 0, declined, paid};
        declined |= 1ULL << card;
    }
    int first_empty = -1, nempty = 0;
    for (int e = 0; e < n; e++)
        if (!s->len[e]) {
            if (first_empty < 0) first_empty = e;
            nempty++;
        }
    if (nempty) {
        int last = nempty == 1 ? (int)ds_group(g, s) : 0;
        for (int i = 0; i < n; i++)
            if (s->len[i] > 1 || (s->len[i] && s->base[i]))
                out[count++] = (DsStep){i, first_empty, s->cards[i][s->len[i] - 1], last,
                                        declined, s->owed};
    }
    if (s->stock_left) {
        uint32_t grp = ds_group(g, s);
        int items = 0, most = -1;
        for (int k = 0; k < n; k++)
            if (grp >> k & 1) {
                int v = s->len[k] ? s->cards[k][0] : -1;
                if (v > most) most = v;
                items++;
            }
        if (items < 2 || most < 0) grp = 0;
        out[count++] = (DsStep){-1, DS_DEAL, (int32_t)grp, s->stock_left * 2 + (nempty ? 0 : 1), 0,
                                s->owed | declined};
    }
    return count;
}

/* discards.py's owes_in_vain(). */
static int ds_owes_in_vain(const DsGame *g, const DsState *s) {
    uint64_t rest = s->owed, over = 0;
    int tops[DS_COLS], ntops = 0;
    for (int j = 0; j < g->n; j++) {
        if (!s->len[j]) continue;
        tops[ntops++] = s->cards[j][s->len[j] - 1];
        int above[4] = {-1, -1, -1, -1};
        for (int k = s->len[j] - 1; k >= 0; k--) {
            int card = s->cards[j][k];
            if (above[card / 16] > card) over |= 1ULL << card;
            if (card > above[card / 16]) above[card / 16] = card;
        }
    }
    int suit = -1, need = 0;
    while (rest) {
        int card = __builtin_ctzll(rest);
        rest &= rest - 1;
        need = card / 16 == suit ? need + 1 : 1;
        suit = card / 16;
        int rank = card % 16;
        uint32_t below = s->alive[suit] & ((1u << rank) - 1);
        if (__builtin_popcount(below) < need) return 1;
        int showing = -1;
        for (int t = 0; t < ntops; t++)
            if (tops[t] / 16 == suit && tops[t] != card && tops[t] % 16 > showing)
                showing = tops[t] % 16;
        if (over >> card & 1) showing = 15;
        int ok = 0;
        for (int k = 0; k < g->nrounds[s->stock_left] && !ok; k++) {
            int high = g->ra_high[s->stock_left][suit][k];
            int least = !k && showing > high ? showing : high;
            uint32_t later = g->ra_later[s->stock_left][suit][k];
            if (least < rank && ((below & ~later) >> (least > 0 ? least : 0))) ok = 1;
        }
        if (!ok) return 1;
    }
    return 0;
}

/* discards.py's stuck(). */
static int ds_stuck(const DsGame *g, const DsState *s) {
    int n = g->n;
    for (int j = 0; j < n; j++)
        if (!s->len[j]) return 0;
    uint32_t coming = g->aces_coming[s->stock_left];
    for (int j = 0; j < n; j++) {
        if (coming >> j & 1) continue;
        int ace = 0;
        for (int k = 0; k < s->len[j] && !ace; k++) ace = s->cards[j][k] % 16 == 14;
        if (!ace) return 0;
    }
    /* the final layout: the columns with the stock dealt onto them */
    uint8_t final[DS_COLS][DS_CARDS + DS_CARDS];
    int flen[DS_COLS];
    for (int j = 0; j < n; j++) {
        memcpy(final[j], s->cards[j], s->len[j]);
        flen[j] = s->len[j];
    }
    for (int k = 0; k < s->stock_left; k++) {
        int j = g->row[k % g->nrow];
        final[j][flen[j]++] = g->deck[s->stock_left - 1 - k];
    }
    int high[4] = {0, 0, 0, 0};
    for (int p = 1; p < DS_POOLS; p++)
        for (int k = 0; k < s->pool_len[p]; k++) {
            int v = s->pool[p][k];
            if (v >= 0 && v % 16 > high[v / 16]) high[v / 16] = v % 16;
        }
    int first[4] = {-1, -1, -1, -1}, where[4] = {-1, -1, -1, -1}, second[4] = {-1, -1, -1, -1};
    for (int j = 0; j < n; j++)
        for (int k = 0; k < flen[j]; k++) {
            int su = final[j][k] / 16, rank = final[j][k] % 16;
            if (rank > first[su]) {
                second[su] = where[su] != j ? first[su] : second[su];
                first[su] = rank;
                where[su] = j;
            } else if (where[su] != j && rank > second[su])
                second[su] = rank;
        }
#define DS_NEVER(card_, j_)                                                                \
    ((card_) % 16 != 14 && high[(card_) / 16] <= (card_) % 16 &&                           \
     (where[(card_) / 16] != (j_) ? first[(card_) / 16] : second[(card_) / 16]) <=          \
         (card_) % 16)
    for (int j = 0; j < n; j++) {
        int holds = 0;
        for (int k = 0; k < s->len[j] && !holds; k++) {
            int card = s->cards[j][k];
            holds = card % 16 == 14 || DS_NEVER(card, j);
        }
        if (!holds) return 0; /* it may empty */
    }
    for (int j = 0; j < n; j++)
        for (int k = 1; k < s->len[j]; k++)
            if (s->cards[j][k] % 16 == 14) return 1;
    for (int j = 0; j < n; j++)
        for (int k = 0; k < flen[j]; k++)
            if (DS_NEVER(final[j][k], j)) return 1;
#undef DS_NEVER
    return 0;
}

static void ds_play(const DsGame *g, DsState *s, const DsStep *m) {
    s->kept = m->kept;
    s->owed = m->owed;
    if (m->target == DS_DISCARD) {
        s->len[m->column]--;
        s->alive[m->card / 16] &= ~(1u << (m->card % 16));
        s->discarded++;
    } else if (m->target == DS_DEAL) {
        if (m->card) {
            int pool = m->extra >> 1, k = 0;
            int8_t items[DS_COLS];
            for (int j = 0; j < g->n; j++)
                if (m->card >> j & 1) {
                    int8_t v = s->len[j] ? (int8_t)s->cards[j][0] : -1;
                    int at = k++;
                    while (at && items[at - 1] > v) { /* kept sorted as it grows */
                        items[at] = items[at - 1];
                        at--;
                    }
                    items[at] = v;
                    s->len[j] = 0;
                    s->base[j] = (uint8_t)pool;
                }
            memcpy(s->pool[pool], items, k);
            s->pool_len[pool] = (uint8_t)k;
        }
        for (int r = 0; r < g->nrow; r++) {
            int j = g->row[r];
            if (s->stock_left) s->cards[j][s->len[j]++] = g->deck[--s->stock_left];
        }
        s->fixed = 0;
    } else if (m->target == DS_RESOLVE) {
        int p = m->extra, k = 0;
        while (s->pool[p][k] != m->card) k++;
        memmove(&s->pool[p][k], &s->pool[p][k + 1], s->pool_len[p] - k - 1);
        s->pool_len[p]--;
        s->base[m->column] = 0;
        if (m->card >= 0) {
            memmove(&s->cards[m->column][1], &s->cards[m->column][0], s->len[m->column]);
            s->cards[m->column][0] = (uint8_t)m->card;
            s->len[m->column]++;
        }
    } else {
        s->cards[m->target][s->len[m->target]++] = s->cards[m->column][--s->len[m->column]];
        if (m->extra) s->fixed = (uint32_t)m->extra;
    }
}

static int ds_won(const DsGame *g, const DsState *s) {
    if (s->discarded < g->to_discard) return 0;
    if (!g->single) return 1;
    for (int j = 0; j < g->n; j++)
        if (s->len[j] != 1) return 0;
    for (int p = 1; p < DS_POOLS; p++)
        for (int k = 0; k < s->pool_len[p]; k++)
            if (s->pool[p][k] != -1) return 0;
    return 1;
}

/* The column order of a key once the stock is empty: by pool, then by the cards as a
   sequence (a shorter one that starts another first), as Python sorts the tuples. */
static int ds_column_less(const DsState *s, int a, int b) {
    if (s->base[a] != s->base[b]) return s->base[a] < s->base[b];
    int la = s->len[a], lb = s->len[b];
    for (int k = 0; k < la && k < lb; k++)
        if (s->cards[a][k] != s->cards[b][k]) return s->cards[a][k] < s->cards[b][k];
    return la < lb;
}

/* A set of cards in a key: how many, then each card's number (most sets are small). */
static int ds_put_cards(uint8_t *out, int k, uint64_t cards) {
    int at = k++;
    out[at] = 0;
    for (; cards; cards &= cards - 1, out[at]++) out[k++] = (uint8_t)__builtin_ctzll(cards);
    return k;
}

/* discards.py's key(), as bytes: equal bytes exactly when the Python keys are equal. */
static int ds_key(const DsGame *g, const DsState *s, uint8_t *out) {
    int n = g->n, k = 0;
    out[k++] = (uint8_t)s->stock_left;
    if (!s->stock_left) {
        k = ds_put_cards(out, k, s->owed);
        int order[DS_COLS];
        for (int j = 0; j < n; j++) {
            int at = j;
            while (at && ds_column_less(s, j, order[at - 1])) {
                order[at] = order[at - 1];
                at--;
            }
            order[at] = j;
        }
        for (int i = 0; i < n; i++) {
            int j = order[i];
            out[k++] = s->base[j];
            out[k++] = s->len[j];
            memcpy(out + k, s->cards[j], s->len[j]);
            k += s->len[j];
        }
    } else {
        k = ds_put_cards(out, k, s->kept);
        k = ds_put_cards(out, k, s->owed);
        uint32_t grp = ds_group(g, s);
        out[k++] = (uint8_t)grp;
        out[k++] = (uint8_t)(grp >> 8);
        int lone[DS_COLS], nlone = 0;
        for (int j = 0; j < n; j++) {
            if (grp >> j & 1) {
                int v = s->len[j] ? s->cards[j][0] : -1, at = nlone++;
                while (at && lone[at - 1] > v) {
                    lone[at] = lone[at - 1];
                    at--;
                }
                lone[at] = v;
                continue;
            }
            out[k++] = s->base[j];
            out[k++] = s->len[j];
            memcpy(out + k, s->cards[j], s->len[j]);
            k += s->len[j];
        }
        for (int i = 0; i < nlone; i++) out[k++] = (uint8_t)lone[i];
    }
    for (int p = 1; p < DS_POOLS; p++) {
        if (!s->pool_len[p]) continue;
        out[k++] = (uint8_t)p;
        out[k++] = s->pool_len[p];
        memcpy(out + k, s->pool[p], s->pool_len[p]);
        k += s->pool_len[p];
    }
    return k;
}

/* The most bytes a key takes: stock, the cards kept and those owing a use (each set a
   count, then its cards), group, each column's pool and length, every card once, and each
   pool's number, length and items: a pool holds one item per column whose bottom it
   hides, so all pools together hold DS_COLS items at most. Below MAXKEY, as a table
   node's one length byte needs. */
#define DS_KEY_MAX (1 + 2 + 2 * DS_CARDS + 2 + 2 * DS_COLS + DS_CARDS + 3 * DS_COLS)
_Static_assert(DS_KEY_MAX <= MAXKEY, "a discard game's key must fit a table node");

typedef struct {
    DsState st;
    DsStep opts[DS_OPTS];
    int nopt, next;
} DsFrame;

static PyObject *py_discards(PyObject *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"columns", "deck", "row", "to_discard", "discarded", "single",
                            "greedy", "max_states", "timeout", "cancel", NULL};
    PyObject *columns, *cancel = Py_None;
    Py_buffer deck, row;
    int to_discard, discarded, single, greedy;
    long long max_states;
    double timeout;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!y*y*iippLd|O", names, &PyTuple_Type, &columns,
                                     &deck, &row, &to_discard, &discarded, &single, &greedy,
                                     &max_states, &timeout, &cancel))
        return NULL;
    PyObject *result = NULL;
    DsGame *g = NULL;
    DsFrame *frames = NULL;
    size_t nframes = 0;
    Acc acc = {0, 0, 0};
    Table seen;
    int have_table = 0;
    Py_ssize_t n = PyTuple_GET_SIZE(columns);
    uint64_t used = 0; /* every card given, to refuse a card given twice */
    if (n < 1 || n > DS_COLS || deck.len > DS_CARDS || row.len > DS_COLS || max_states < 1 ||
        to_discard < 0 || discarded < 0) {
        PyErr_SetString(PyExc_ValueError, "discards: bad columns, stock, row or budget");
        goto done;
    }
    g = PyMem_RawCalloc(1, sizeof(DsGame));
    frames = PyMem_RawCalloc(64, sizeof(DsFrame));
    if (!g || !frames) {
        PyErr_NoMemory();
        goto done;
    }
    nframes = 64;
    g->n = (int)n;
    g->to_discard = to_discard;
    g->single = single;
    g->greedy = greedy;
    DsState *s0 = &frames[0].st;
    s0->discarded = discarded;
    int total = 0;
#define DS_CARD_OK(c_) ((c_) / 16 < 4 && (c_) % 16 >= 2 && (c_) % 16 <= 14 && !(used >> (c_) & 1))
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *col = PyTuple_GET_ITEM(columns, i);
        if (!PyBytes_Check(col)) {
            PyErr_SetString(PyExc_TypeError, "discards: each column is bytes of card numbers");
            goto done;
        }
        Py_ssize_t len = PyBytes_GET_SIZE(col);
        total += (int)len;
        if (total > DS_CARDS) {
            PyErr_SetString(PyExc_ValueError, "discards: more than 52 cards");
            goto done;
        }
        for (Py_ssize_t k = 0; k < len; k++) {
            int c = (uint8_t)PyBytes_AS_STRING(col)[k];
            if (!DS_CARD_OK(c)) {
                PyErr_SetString(PyExc_ValueError, "discards: a bad or repeated card number");
                goto done;
            }
            used |= 1ULL << c;
            s0->cards[i][k] = (uint8_t)c;
            s0->alive[c / 16] |= 1u << (c % 16);
        }
        s0->len[i] = (uint8_t)len;
    }
    for (Py_ssize_t k = 0; k < deck.len; k++) {
        int c = ((uint8_t *)deck.buf)[k];
        if (!DS_CARD_OK(c) || ++total > DS_CARDS) {
            PyErr_SetString(PyExc_ValueError, "discards: a bad or repeated card number");
            goto done;
        }
        used |= 1ULL << c;
        g->deck[k] = (uint8_t)c;
        s0->alive[c / 16] |= 1u << (c % 16);
    }
#undef DS_CARD_OK
    s0->stock_left = (int)deck.len;
    g->nrow = (int)row.len;
    for (int r = 0; r < g->nrow; r++) {
        g->row[r] = ((uint8_t *)row.buf)[r];
        if (g->row[r] >= n) {
            PyErr_SetString(PyExc_ValueError, "discards: a row column out of range");
            goto done;
        }
    }
    if (deck.len && !g->nrow) {
        PyErr_SetString(PyExc_ValueError, "discards: a stock with no row to deal");
        goto done;
    }
    /* discards.py's rounds_ahead and aces_coming, per number of cards left */
    int width = g->nrow > 1 ? g->nrow : 1;
    for (int left = 0; left <= deck.len; left++) {
        int nends = (left + width - 1) / width;
        g->nrounds[left] = nends + 1;
        for (int k = 0; k <= nends; k++) {
            int lo = 0, hi = 0; /* dealt: deck[lo:hi] */
            if (k) {
                hi = left - (k - 1) * width;
                lo = hi - width > 0 ? hi - width : 0;
            }
            int later = k < nends ? left - k * width : 0; /* later: deck[:later] */
            for (int su = 0; su < 4; su++) {
                int high = -1;
                uint32_t bits = 0;
                for (int i = lo; i < hi; i++)
                    if (g->deck[i] / 16 == su && g->deck[i] % 16 > high) high = g->deck[i] % 16;
                for (int i = 0; i < later; i++)
                    if (g->deck[i] / 16 == su) bits |= 1u << (g->deck[i] % 16);
                g->ra_high[left][su][k] = (int8_t)high;
                g->ra_later[left][su][k] = bits;
            }
        }
        uint32_t coming = 0;
        if (g->nrow)
            for (int k = 0; k < left; k++)
                if (g->deck[left - 1 - k] % 16 == 14) coming |= 1u << g->row[k % g->nrow];
        g->aces_coming[left] = coming;
    }
    if (!table_init(&seen, &acc, 20, 1 << 12)) {
        PyErr_NoMemory();
        goto done;
    }
    have_table = 1;
    uint8_t key[DS_KEY_MAX + 16];
    int fresh = 0;
    if (table_put(&seen, key, ds_key(g, s0, key), NULL, 0, &fresh) == UINT32_MAX) {
        PyErr_NoMemory();
        goto done;
    }
    frames[0].nopt = ds_options(g, s0, frames[0].opts);
    frames[0].next = 0;
    const char *verdict = "unwinnable", *reason = "";
    int status = 0; /* 0 running/lost, 1 won, 2 stopped, 3 memory */
    int stop = 0;
    double deadline = timeout >= 0 ? now_seconds() + timeout : -1;
    long depth = 0;
    Py_BEGIN_ALLOW_THREADS
    while (depth >= 0) {
        DsFrame *f = &frames[depth];
        if (f->next == f->nopt) { /* every step from here tried: take back the one here */
            depth--;
            continue;
        }
        if ((size_t)depth + 1 >= nframes) {
            DsFrame *more = PyMem_RawRealloc(frames, 2 * nframes * sizeof(DsFrame));
            if (!more) {
                status = 3;
                break;
            }
            frames = more;
            nframes *= 2;
            f = &frames[depth];
        }
        DsFrame *c = &frames[depth + 1];
        const DsStep *step = &f->opts[f->next++];
        c->st = f->st;
        ds_play(g, &c->st, step);
        if (ds_won(g, &c->st)) {
            status = 1;
            break;
        }
        int count = ds_options(g, &c->st, c->opts);
        if (count > 1 && ((c->st.owed && ds_owes_in_vain(g, &c->st)) || ds_stuck(g, &c->st)))
            count = 0; /* lost */
        if (count > 1) {
            /* only a position with a choice is stored */
            int len = ds_key(g, &c->st, key);
            if (table_put(&seen, key, len, NULL, 0, &fresh) == UINT32_MAX) {
                status = 3;
                break;
            }
            if (!fresh)
                count = 0;
            else {
                long long stored = (long long)seen.count;
                if (stored >= max_states) {
                    status = 2;
                    reason = "state budget";
                    break;
                }
                if (!(stored % 4096) &&
                    asked_to_stop(deadline, cancel, &_save, &reason, &stop)) {
                    status = 2;
                    break;
                }
            }
        }
        c->nopt = count;
        c->next = 0;
        depth++;
    }
    Py_END_ALLOW_THREADS
    if (stop < 0) goto done; /* cancel raised: pass its exception on */
    if (status == 3) {
        PyErr_NoMemory();
        goto done;
    }
    PyObject *line = PyList_New(0);
    if (!line) goto done;
    if (status == 1) {
        verdict = "winnable";
        for (long d = 0; d <= depth; d++) {
            const DsStep *m = &frames[d].opts[frames[d].next - 1];
            PyObject *item = Py_BuildValue("(iiii)", m->column, m->target, m->card, m->extra);
            if (!item || PyList_Append(line, item) < 0) {
                Py_XDECREF(item);
                Py_DECREF(line);
                goto done;
            }
            Py_DECREF(item);
        }
    }
    if (status == 2) verdict = "undecided";
    result = Py_BuildValue("(sNnsn)", verdict, line, (Py_ssize_t)seen.count, reason,
                           (Py_ssize_t)(acc.peak + nframes * sizeof(DsFrame)));
done:
    PyBuffer_Release(&deck);
    PyBuffer_Release(&row);
    if (have_table) table_free(&seen);
    PyMem_RawFree(g);
    PyMem_RawFree(frames);
    return result;
}

static PyMethodDef methods[] = {
    {"solve", (PyCFunction)(void (*)(void))py_solve, METH_VARARGS | METH_KEYWORDS,
     "solve(spec, can_build, can_run, empty_ok, piles, weights, cols, cells, found,\n"
     "      max_states, max_bytes,\n"
     "      timeout, cancel=None, progress=None)\n"
     "-> (status, moves, positions, peak_bytes, expanded, stored)\n\n"
     "The search of solitaire_core.solver in C; called by solitaire_core.solver.native,\n"
     "which documents the arguments."},
    {"golf", (PyCFunction)(void (*)(void))py_golf, METH_VARARGS | METH_KEYWORDS,
     "golf(columns, deck, top, over, wrap, closed_king, max_states, timeout, cancel=None)\n"
     "-> (verdict, line, positions, reason, peak_bytes)\n\n"
     "The one-foundation games' depth-first search in C; called by\n"
     "solitaire_core.solver.golf, which documents the arguments."},
    {"stock_search", (PyCFunction)(void (*)(void))py_stock_search, METH_VARARGS | METH_KEYWORDS,
     "stock_search(columns, hidden, stock, waste, foundations, rounds, draw, redeals, build,\n"
     "             run, empty_ok, wanting, face_up_runs, foundation_runs, foundation_return,\n"
     "             policy, max_states, timeout, cancel=None, progress=None, narrow=False,\n"
     "             reserve=b'', base=1, one_or_all=False, fill_empty=False, row_columns=b'',\n"
     "             row_onto_empty=True, complete_suits=False, classes=b'')\n"
     "-> (verdict, line, positions, reason, best_line, best_score)\n\n"
     "The thoughtful search of the stock games in C; called by\n"
     "solitaire_core.solver.stock, which documents the arguments."},
    {"discards", (PyCFunction)(void (*)(void))py_discards, METH_VARARGS | METH_KEYWORDS,
     "discards(columns, deck, row, to_discard, discarded, single, greedy, max_states,\n"
     "         timeout, cancel=None)\n"
     "-> (verdict, line, positions, reason, peak_bytes)\n\n"
     "The discard games' depth-first search in C; called by\n"
     "solitaire_core.solver.discards, which documents the arguments."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_csolver", "The solver's compiled search (see native.py).", -1,
    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__csolver(void) { return PyModule_Create(&module); }
