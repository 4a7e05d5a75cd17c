/* paiju.rl._cencode: the observation encoders' planes and scalars, written in C.
 *
 * The encoders' specification is Python: MahjongEncoder.encode_reference and
 * QingerEncoder.encode_reference in encode.py. This module fills the same cells from
 * the same hand attributes, from scratch at every call (no state kept between calls),
 * because a numpy call costs as much as a few hundred C statements: the encoding of a
 * seat here is one call instead of a dozen numpy operations. What needs the analyser
 * (the shanten scalar and planes) or the hidden state (oracle planes) stays in Python.
 *
 * Every index read from the hand is checked before it is written, so a corrupted hand
 * raises ValueError instead of writing outside the buffers.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define MJ_KINDS 34
#define MJ_SEATS 4
#define MJ_PLANES 62
#define MJ_SCALARS 83
#define QG_KINDS 36
#define QG_PLAYERS 3
#define QG_PLANES 51
#define QG_SCALARS 33
#define MAX_SEATS 4

/* set by configure(): the MeldType members, each game's phase tuple, the 见牌 table */
static PyObject *meld_types[5]; /* pong, kong, added_kong, concealed_kong, chi */
static PyObject *mj_phases;
static PyObject *qg_phases;
static float jian_pai[QG_KINDS * QG_KINDS];
static int configured;

static PyObject *s_counts, *s_discards, *s_melds, *s_flowers, *s_fed, *s_ready, *s_ledger,
    *s_phase, *s_current, *s_drawn, *s_claim_tile, *s_claim_from, *s_rob_seat, *s_head,
    *s_tail, *s_leopard, *s_after_kong, *s_kong_chain, *s_dealer, *s_rules, *s_draw_streak,
    *s_net, *s_tile, *s_type, *s_source, *s_cards, *s_takeoffs, *s_players, *s_next_seat,
    *s_knocked, *s_declared, *s_revealed, *s_indicator, *s_claim_card, *s_after_pong,
    *s_stock;

static int
fail(const char *what)
{
    PyErr_Format(PyExc_ValueError, "observation encoder: %s", what);
    return -1;
}

static int
as_long(PyObject *obj, long *out)
{
    long v = PyLong_AsLong(obj);
    if (v == -1 && PyErr_Occurred())
        return -1;
    *out = v;
    return 0;
}

/* obj.name as a C long (new reference handled here) */
static int
attr_long(PyObject *obj, PyObject *name, long *out)
{
    PyObject *v = PyObject_GetAttr(obj, name);
    if (v == NULL)
        return -1;
    int rc;
    if (v == Py_None) {
        *out = -1;
        rc = 0;
    } else {
        rc = as_long(v, out);
    }
    Py_DECREF(v);
    return rc;
}

static int
attr_truth(PyObject *obj, PyObject *name, int *out)
{
    PyObject *v = PyObject_GetAttr(obj, name);
    if (v == NULL)
        return -1;
    int t = PyObject_IsTrue(v);
    Py_DECREF(v);
    if (t < 0)
        return -1;
    *out = t;
    return 0;
}

/* the index of the hand's phase in `phases` (identity first: the engines assign the
 * Phase members themselves) */
static int
phase_index(PyObject *hand, PyObject *phases, long *out)
{
    PyObject *p = PyObject_GetAttr(hand, s_phase);
    if (p == NULL)
        return -1;
    Py_ssize_t n = PyTuple_GET_SIZE(phases);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (PyTuple_GET_ITEM(phases, i) == p) {
            Py_DECREF(p);
            *out = (long)i;
            return 0;
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        int eq = PyObject_RichCompareBool(PyTuple_GET_ITEM(phases, i), p, Py_EQ);
        if (eq < 0) {
            Py_DECREF(p);
            return -1;
        }
        if (eq) {
            Py_DECREF(p);
            *out = (long)i;
            return 0;
        }
    }
    Py_DECREF(p);
    return fail("the hand's phase is not one of the game's phases");
}

/* item i of a list (borrowed), checked */
static PyObject *
list_item(PyObject *list, Py_ssize_t i, const char *what)
{
    if (!PyList_Check(list) || i >= PyList_GET_SIZE(list)) {
        PyErr_Format(PyExc_ValueError, "observation encoder: %s is not a list of seats", what);
        return NULL;
    }
    return PyList_GET_ITEM(list, i);
}

/* seat s's own list (its melds, flowers, takeoffs) in a list of seats (borrowed), checked */
static PyObject *
seat_list(PyObject *lists, Py_ssize_t s, const char *what)
{
    PyObject *v = list_item(lists, s, what);
    if (v != NULL && !PyList_Check(v)) {
        PyErr_Format(PyExc_ValueError, "observation encoder: a seat's %s are not a list", what);
        return NULL;
    }
    return v;
}

/* a seat's count vector (bytes or bytearray of `kinds` counts) into out */
static int
read_counts(PyObject *obj, int kinds, int *out)
{
    const char *data;
    Py_ssize_t n;
    if (PyByteArray_Check(obj)) {
        data = PyByteArray_AS_STRING(obj);
        n = PyByteArray_GET_SIZE(obj);
    } else if (PyBytes_Check(obj)) {
        data = PyBytes_AS_STRING(obj);
        n = PyBytes_GET_SIZE(obj);
    } else {
        return fail("a seat's counts are not bytes");
    }
    if (n != kinds)
        return fail("a seat's counts have the wrong length");
    for (int k = 0; k < kinds; k++)
        out[k] = (unsigned char)data[k];
    return 0;
}

/* the pieces seat s holds concealed (the sum of its counts) */
static int
held_total(PyObject *c_obj, int s, int kinds, long *total)
{
    int held[QG_KINDS];
    PyObject *cs = list_item(c_obj, s, "counts");
    if (cs == NULL || read_counts(cs, kinds, held) < 0)
        return -1;
    *total = 0;
    for (int k = 0; k < kinds; k++)
        *total += held[k];
    return 0;
}

/* one writable float32 buffer of at least `cells` cells */
static int
get_floats(PyObject *obj, Py_buffer *view, Py_ssize_t cells, const char *what)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return -1;
    if (view->itemsize != 4 || view->format == NULL || strcmp(view->format, "f") != 0 ||
        view->len < cells * 4) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_ValueError, "observation encoder: %s must be float32 of %zd cells",
                     what, cells);
        return -1;
    }
    return 0;
}

/* thermometer rows: row + i is 1 where count >= i + 1 (i = 0..3) */
static void
thermometer(float *planes, int kinds, int row, const int *count)
{
    for (int k = 0; k < kinds; k++) {
        int c = count[k];
        for (int i = 0; i < 4 && i < c; i++)
            planes[(row + i) * kinds + k] = 1.0f;
    }
}

/* a discard list: its counts added to `count`, its recency row (1 for the latest, 1/2
 * for the one before: a kind keeps its latest) */
static int
discards_row(PyObject *list, float *planes, int kinds, int row, int *count)
{
    if (!PyList_Check(list))
        return fail("a seat's discards are not a list");
    Py_ssize_t n = PyList_GET_SIZE(list);
    for (Py_ssize_t i = 0; i < n; i++) {
        long t;
        if (as_long(PyList_GET_ITEM(list, i), &t) < 0)
            return -1;
        if (t < 0 || t >= kinds)
            return fail("a discard is not a kind");
        count[t] += 1;
        planes[row * kinds + t] = 1.0f / (float)(n - i);
    }
    return 0;
}

static int
meld_row(PyObject *type)
{
    for (int i = 0; i < 5; i++)
        if (meld_types[i] == type)
            return i + 1;
    return -1;
}

static int
check_seat(long s, long n)
{
    return s >= 0 && s < n ? 0 : fail("a seat number is out of range");
}

static int
mod(long a, int m)
{
    long r = a % m;
    return (int)(r < 0 ? r + m : r);
}

/* net points per seat from hand.net(), or zeros while nothing was paid */
static int
read_net(PyObject *hand, int n, long *net)
{
    for (int s = 0; s < n; s++)
        net[s] = 0;
    PyObject *ledger = PyObject_GetAttr(hand, s_ledger);
    if (ledger == NULL)
        return -1;
    Py_ssize_t paid = PyObject_Length(ledger);
    Py_DECREF(ledger);
    if (paid < 0)
        return -1;
    if (paid == 0)
        return 0;
    PyObject *out = PyObject_CallMethodNoArgs(hand, s_net);
    if (out == NULL)
        return -1;
    int rc = 0;
    if (!PyList_Check(out) || PyList_GET_SIZE(out) < n)
        rc = fail("hand.net() is not a list of seats");
    for (int s = 0; rc == 0 && s < n; s++)
        rc = as_long(PyList_GET_ITEM(out, s), &net[s]);
    Py_DECREF(out);
    return rc;
}

static int
write_seen(PyObject *seen_obj, int kinds, const int *seen)
{
    if (seen_obj == Py_None)
        return 0;
    Py_buffer v;
    if (PyObject_GetBuffer(seen_obj, &v, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0)
        return -1;
    if (v.len < kinds * 2 || v.itemsize != 2) {
        PyBuffer_Release(&v);
        return fail("seen must be int16 of one cell a kind");
    }
    short *cells = (short *)v.buf;
    for (int k = 0; k < kinds; k++)
        cells[k] = (short)seen[k];
    PyBuffer_Release(&v);
    return 0;
}

/* ---- mahjong (Jiaxing, Taixing) ---------------------------------------------------- */

static int
mahjong_fill(PyObject *hand, long seat, float *pl, float *sc, long round_wind, int *seen_out)
{
    int kinds = MJ_KINDS;
    int counts[6][MJ_KINDS];
    memset(counts, 0, sizeof counts);
    long phase, current, drawn, dealer;
    if (phase_index(hand, mj_phases, &phase) < 0 || attr_long(hand, s_current, &current) < 0 ||
        attr_long(hand, s_drawn, &drawn) < 0 || attr_long(hand, s_dealer, &dealer) < 0)
        return -1;
    if (check_seat(seat, MJ_SEATS) < 0 || check_seat(dealer, MJ_SEATS) < 0)
        return -1;
    if (phase == 0 && current == seat && drawn >= 0) {
        if (drawn >= kinds)
            return fail("the drawn tile is not a kind");
        pl[24 * kinds + drawn] = 1.0f;
    }
    long offer_from = -1;
    if (phase == 1 || phase == 2) {
        long tile;
        if (attr_long(hand, s_claim_tile, &tile) < 0)
            return -1;
        if (tile < 0 || tile >= kinds)
            return fail("the tile on offer is not a kind");
        pl[25 * kinds + tile] = 1.0f;
        if (attr_long(hand, phase == 1 ? s_claim_from : s_rob_seat, &offer_from) < 0)
            return -1;
    }
    PyObject *c_obj = PyObject_GetAttr(hand, s_counts);
    PyObject *d_obj = PyObject_GetAttr(hand, s_discards);
    PyObject *m_obj = PyObject_GetAttr(hand, s_melds);
    PyObject *f_obj = PyObject_GetAttr(hand, s_flowers);
    PyObject *fed = PyObject_GetAttr(hand, s_fed);
    PyObject *ready = PyObject_GetAttr(hand, s_ready);
    int rc = -1;
    if (!c_obj || !d_obj || !m_obj || !f_obj || !fed || !ready)
        goto done;
    PyObject *own = list_item(c_obj, seat, "counts");
    if (own == NULL || read_counts(own, kinds, counts[0]) < 0)
        goto done;
    PyObject *fed_seat = list_item(fed, seat, "fed");
    if (fed_seat == NULL)
        goto done;
    for (int r = 0; r < MJ_SEATS; r++) {
        int s = (int)((seat + r) % MJ_SEATS);
        int base = 26 + 9 * r;
        PyObject *d = list_item(d_obj, s, "discards");
        if (d == NULL || discards_row(d, pl, kinds, base, counts[2 + r]) < 0)
            goto done;
        PyObject *ms = seat_list(m_obj, s, "melds");
        if (ms == NULL)
            goto done;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(ms); i++) {
            PyObject *m = PyList_GET_ITEM(ms, i);
            long t, source;
            PyObject *type = PyObject_GetAttr(m, s_type);
            if (type == NULL)
                goto done;
            int row = meld_row(type);
            Py_DECREF(type);
            if (attr_long(m, s_tile, &t) < 0 || attr_long(m, s_source, &source) < 0)
                goto done;
            if (row < 0 || t < 0 || t >= kinds || (row == 5 && t + 2 >= kinds)) {
                fail("a meld is not a known set of known tiles");
                goto done;
            }
            if (row == 5) { /* a chow: its run, each tile once */
                for (int u = 0; u < 3; u++) {
                    pl[(base + row) * kinds + t + u] = 1.0f;
                    counts[1][t + u] += 1;
                }
            } else {
                pl[(base + row) * kinds + t] = 1.0f;
                counts[1][t] += row == 1 ? 3 : 4;
            }
            if (source >= 0) {
                if (check_seat(source, MJ_SEATS) < 0)
                    goto done;
                pl[(base + 5 + mod(source - s, 4)) * kinds + t] = 1.0f;
            }
        }
        PyObject *ry = list_item(ready, s, "ready");
        if (ry == NULL)
            goto done;
        int is_ready = PyObject_IsTrue(ry);
        if (is_ready < 0)
            goto done;
        sc[22 + r] = (float)is_ready;
        PyObject *fl = seat_list(f_obj, s, "flowers");
        if (fl == NULL)
            goto done;
        Py_ssize_t nf = PyList_GET_SIZE(fl);
        if (nf) {
            sc[26 + r] = (float)((double)nf / 8.0);
            for (Py_ssize_t i = 0; i < nf; i++) {
                long f;
                if (as_long(PyList_GET_ITEM(fl, i), &f) < 0)
                    goto done;
                if (f < 34 || f >= 42) {
                    fail("a flower is not a flower tile");
                    goto done;
                }
                sc[30 + 8 * r + (f - 34)] = 1.0f;
            }
        }
        long a, b;
        PyObject *fed_s = list_item(fed, s, "fed");
        PyObject *fa = fed_s ? list_item(fed_seat, s, "fed") : NULL;
        PyObject *fb = fa ? list_item(fed_s, seat, "fed") : NULL;
        if (fb == NULL || as_long(fa, &a) < 0 || as_long(fb, &b) < 0)
            goto done;
        sc[62 + r] = (float)((double)a / 4.0);
        sc[66 + r] = (float)((double)b / 4.0);
        long total;
        if (held_total(c_obj, s, kinds, &total) < 0)
            goto done;
        sc[72 + r] = (float)((double)total / 14.0);
    }
    /* seen: own tiles, every meld and every discard */
    for (int k = 0; k < kinds; k++)
        counts[1][k] += counts[0][k] + counts[2][k] + counts[3][k] + counts[4][k] + counts[5][k];
    for (int j = 0; j < 6; j++)
        thermometer(pl, kinds, 4 * j, counts[j]);
    if (seen_out != NULL)
        memcpy(seen_out, counts[1], sizeof counts[1]);
    long head, tail, draw_streak, kong_chain, after_kong;
    int leopard;
    long net[MJ_SEATS];
    PyObject *rules = PyObject_GetAttr(hand, s_rules);
    if (rules == NULL)
        goto done;
    int bad = attr_long(rules, s_draw_streak, &draw_streak);
    Py_DECREF(rules);
    if (bad < 0 || attr_long(hand, s_head, &head) < 0 || attr_long(hand, s_tail, &tail) < 0 ||
        attr_long(hand, s_kong_chain, &kong_chain) < 0 ||
        attr_long(hand, s_after_kong, &after_kong) < 0 ||
        attr_truth(hand, s_leopard, &leopard) < 0 || read_net(hand, MJ_SEATS, net) < 0)
        goto done;
    sc[0] = (float)((double)(tail - head) / 136.0);
    sc[1 + mod(dealer - seat, 4)] = 1.0f;
    sc[5 + mod(seat - dealer, 4)] = 1.0f;
    sc[9 + mod(round_wind, 4)] = 1.0f;
    sc[13 + phase] = 1.0f;
    for (int r = 0; r < MJ_SEATS; r++)
        sc[18 + r] = (float)((double)net[(seat + r) % MJ_SEATS] / 100.0);
    sc[70] = (float)((double)draw_streak / 4.0);
    sc[71] = (float)leopard;
    sc[76] = after_kong == seat ? 1.0f : 0.0f;
    sc[77] = (float)((double)kong_chain / 4.0);
    if (offer_from >= 0) {
        if (check_seat(offer_from, MJ_SEATS) < 0)
            goto done;
        sc[78 + mod(offer_from - seat, 4)] = 1.0f;
    }
    rc = 0;
done:
    Py_XDECREF(c_obj);
    Py_XDECREF(d_obj);
    Py_XDECREF(m_obj);
    Py_XDECREF(f_obj);
    Py_XDECREF(fed);
    Py_XDECREF(ready);
    return rc;
}

/* ---- Qing'er ---------------------------------------------------------------------- */

/* the three players in play order from `seat` (a seat sitting out sees the table from
 * the dealer), as QingerEncoder._order */
static int
qinger_order(PyObject *hand, long seat, long dealer, long n_seats, int order[QG_PLAYERS])
{
    PyObject *players = PyObject_GetAttr(hand, s_players);
    PyObject *nxt = PyObject_GetAttr(hand, s_next_seat);
    int rc = -1;
    if (players == NULL || nxt == NULL)
        goto done;
    long start = seat;
    PyObject *seat_obj = PyLong_FromLong(seat);
    if (seat_obj == NULL)
        goto done;
    int in = PySequence_Contains(players, seat_obj);
    Py_DECREF(seat_obj);
    if (in < 0)
        goto done;
    if (!in)
        start = dealer;
    order[0] = (int)start;
    for (int r = 1; r < QG_PLAYERS; r++) {
        PyObject *v = list_item(nxt, order[r - 1], "next_seat");
        long s;
        if (v == NULL || as_long(v, &s) < 0 || check_seat(s, n_seats) < 0)
            goto done;
        order[r] = (int)s;
    }
    rc = 0;
done:
    Py_XDECREF(players);
    Py_XDECREF(nxt);
    return rc;
}

static int
rel(const int order[QG_PLAYERS], long s)
{
    for (int r = 0; r < QG_PLAYERS; r++)
        if (order[r] == s)
            return r;
    return fail("a seat is not among the players");
}

/* a sequence of card numbers (a meld's cards, a takeoff) as C ints */
static Py_ssize_t
read_cards(PyObject *seq, int *cards, Py_ssize_t room)
{
    PyObject *fast = PySequence_Fast(seq, "observation encoder: cards are not a sequence");
    if (fast == NULL)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > room) {
        Py_DECREF(fast);
        fail("too many cards in a set");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long c;
        if (as_long(PySequence_Fast_GET_ITEM(fast, i), &c) < 0) {
            Py_DECREF(fast);
            return -1;
        }
        if (c < 0 || c >= QG_KINDS) {
            Py_DECREF(fast);
            fail("a card is not a card kind");
            return -1;
        }
        cards[i] = (int)c;
    }
    Py_DECREF(fast);
    return n;
}

static int
qinger_fill(PyObject *hand, long seat, float *pl, float *sc, int *seen_out)
{
    int kinds = QG_KINDS;
    int counts[5][QG_KINDS];
    memset(counts, 0, sizeof counts);
    int *shown = counts[1];
    long phase, current, drawn, dealer, indicator, stock_len, head;
    int revealed, after_pong;
    PyObject *c_obj = PyObject_GetAttr(hand, s_counts);
    PyObject *d_obj = NULL, *m_obj = NULL, *t_obj = NULL, *f_obj = NULL, *k_obj = NULL,
             *dc_obj = NULL, *stock = NULL;
    int rc = -1;
    if (c_obj == NULL)
        goto done;
    if (!PyList_Check(c_obj) || PyList_GET_SIZE(c_obj) > MAX_SEATS) {
        fail("counts is not a list of seats");
        goto done;
    }
    long n_seats = (long)PyList_GET_SIZE(c_obj);
    if (phase_index(hand, qg_phases, &phase) < 0 || attr_long(hand, s_current, &current) < 0 ||
        attr_long(hand, s_drawn, &drawn) < 0 || attr_long(hand, s_dealer, &dealer) < 0 ||
        attr_truth(hand, s_revealed, &revealed) < 0 ||
        attr_long(hand, s_indicator, &indicator) < 0 || attr_long(hand, s_head, &head) < 0 ||
        attr_truth(hand, s_after_pong, &after_pong) < 0)
        goto done;
    if (check_seat(seat, n_seats) < 0 || check_seat(dealer, n_seats) < 0)
        goto done;
    int order[QG_PLAYERS];
    if (qinger_order(hand, seat, dealer, n_seats, order) < 0)
        goto done;
    if (phase == 2 && current == seat && drawn >= 0) {
        if (drawn >= kinds) {
            fail("the drawn card is not a kind");
            goto done;
        }
        pl[20 * kinds + drawn] = 1.0f;
    }
    if (phase == 3) {
        long card, from;
        if (attr_long(hand, s_claim_card, &card) < 0 || attr_long(hand, s_claim_from, &from) < 0)
            goto done;
        if (card < 0 || card >= kinds) {
            fail("the card on offer is not a kind");
            goto done;
        }
        pl[21 * kinds + card] = 1.0f;
        int r = rel(order, from);
        if (r < 0)
            goto done;
        sc[29 + r] = 1.0f;
    }
    if (revealed) {
        if (indicator < 0 || indicator >= kinds) {
            fail("the 见张 is not a card kind");
            goto done;
        }
        pl[22 * kinds + indicator] = 1.0f;
        shown[indicator] += 1;
        memcpy(pl + 23 * kinds, jian_pai + indicator * kinds, sizeof(float) * kinds);
    }
    long net[MAX_SEATS];
    if (read_net(hand, (int)n_seats, net) < 0)
        goto done;
    d_obj = PyObject_GetAttr(hand, s_discards);
    m_obj = PyObject_GetAttr(hand, s_melds);
    t_obj = PyObject_GetAttr(hand, s_takeoffs);
    f_obj = PyObject_GetAttr(hand, s_flowers);
    k_obj = PyObject_GetAttr(hand, s_knocked);
    dc_obj = PyObject_GetAttr(hand, s_declared);
    if (!d_obj || !m_obj || !t_obj || !f_obj || !k_obj || !dc_obj)
        goto done;
    PyObject *own = list_item(c_obj, seat, "counts");
    if (own == NULL || read_counts(own, kinds, counts[0]) < 0)
        goto done;
    for (int r = 0; r < QG_PLAYERS; r++) {
        int s = order[r];
        int base = 24 + 9 * r;
        PyObject *d = list_item(d_obj, s, "discards");
        if (d == NULL || discards_row(d, pl, kinds, base, counts[2 + r]) < 0)
            goto done;
        PyObject *ms = seat_list(m_obj, s, "melds");
        if (ms == NULL)
            goto done;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(ms); i++) {
            PyObject *m = PyList_GET_ITEM(ms, i);
            PyObject *type = PyObject_GetAttr(m, s_type);
            if (type == NULL)
                goto done;
            int row = meld_row(type);
            Py_DECREF(type);
            if (row < 1 || row > 4) {
                fail("a meld is not a pong or a kong");
                goto done;
            }
            PyObject *cs = PyObject_GetAttr(m, s_cards);
            if (cs == NULL)
                goto done;
            int cards[8];
            Py_ssize_t nc = read_cards(cs, cards, 8);
            Py_DECREF(cs);
            long source;
            if (nc < 0 || attr_long(m, s_source, &source) < 0)
                goto done;
            int fed_row = -1;
            if (source >= 0) {
                int rs = rel(order, s);
                int rf = rel(order, source);
                if (rs < 0 || rf < 0)
                    goto done;
                /* relative to the meld's owner, in the observer's order, as _rel */
                fed_row = base + 6 + mod(rf - rs, QG_PLAYERS);
            }
            for (Py_ssize_t j = 0; j < nc; j++) {
                pl[(base + row) * kinds + cards[j]] = 1.0f;
                shown[cards[j]] += 1;
                if (fed_row >= 0)
                    pl[fed_row * kinds + cards[j]] = 1.0f;
            }
        }
        PyObject *ts = seat_list(t_obj, s, "takeoffs");
        if (ts == NULL)
            goto done;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(ts); i++) {
            int cards[8];
            Py_ssize_t nc = read_cards(PyList_GET_ITEM(ts, i), cards, 8);
            if (nc < 0)
                goto done;
            for (Py_ssize_t j = 0; j < nc; j++) {
                pl[(base + 5) * kinds + cards[j]] += (float)0.25;
                shown[cards[j]] += 1;
            }
        }
        PyObject *fs = list_item(f_obj, s, "flowers");
        if (fs == NULL)
            goto done;
        int flowers[64];
        Py_ssize_t nf = read_cards(fs, flowers, 64);
        if (nf < 0)
            goto done;
        for (Py_ssize_t j = 0; j < nf; j++) {
            pl[(base + 6) * kinds + flowers[j]] += (float)(1.0 / 3.0);
            shown[flowers[j]] += 1;
        }
        PyObject *knock = list_item(k_obj, s, "knocked");
        if (knock == NULL)
            goto done;
        int kc = 0;
        if (knock != Py_None) {
            int t = PyObject_IsTrue(knock);
            if (t < 0)
                goto done;
            kc = t ? 1 : 2;
        }
        sc[9 + 3 * r + kc] = 1.0f;
        sc[18 + r] = (float)((double)net[s] / 100.0);
        long total;
        if (held_total(c_obj, s, kinds, &total) < 0)
            goto done;
        sc[22 + r] = (float)((double)total / 23.0);
        PyObject *dv = list_item(dc_obj, s, "declared");
        long declared;
        if (dv == NULL || as_long(dv, &declared) < 0)
            goto done;
        sc[25 + r] = (float)((double)declared / 7.0);
    }
    /* seen: own cards, the 见张, every meld, takeoff, flower and discard */
    for (int k = 0; k < kinds; k++)
        counts[1][k] += counts[0][k] + counts[2][k] + counts[3][k] + counts[4][k];
    for (int j = 0; j < 5; j++)
        thermometer(pl, kinds, 4 * j, counts[j]);
    if (seen_out != NULL)
        memcpy(seen_out, counts[1], sizeof counts[1]);
    stock = PyObject_GetAttr(hand, s_stock);
    if (stock == NULL)
        goto done;
    stock_len = (long)PyObject_Length(stock);
    if (stock_len < 0)
        goto done;
    int rd = rel(order, dealer);
    if (rd < 0)
        goto done;
    sc[0] = (float)((double)(stock_len - head) / 126.0);
    sc[1 + rd] = 1.0f;
    sc[4 + phase] = 1.0f;
    sc[21] = (float)revealed;
    sc[28] = after_pong && current == seat ? 1.0f : 0.0f;
    rc = 0;
done:
    Py_XDECREF(c_obj);
    Py_XDECREF(d_obj);
    Py_XDECREF(m_obj);
    Py_XDECREF(t_obj);
    Py_XDECREF(f_obj);
    Py_XDECREF(k_obj);
    Py_XDECREF(dc_obj);
    Py_XDECREF(stock);
    return rc;
}

/* ---- module functions ------------------------------------------------------------- */

static PyObject *
encode(PyObject *args, int game)
{
    PyObject *hand, *planes_obj, *scalars_obj, *seen_obj;
    long seat, round_wind;
    if (!PyArg_ParseTuple(args, "OlOOlO", &hand, &seat, &planes_obj, &scalars_obj,
                          &round_wind, &seen_obj))
        return NULL;
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "paiju.rl._cencode: configure() was not called");
        return NULL;
    }
    int kinds = game ? QG_KINDS : MJ_KINDS;
    Py_buffer pv, sv;
    if (get_floats(planes_obj, &pv, (Py_ssize_t)(game ? QG_PLANES : MJ_PLANES) * kinds,
                   "planes") < 0)
        return NULL;
    if (get_floats(scalars_obj, &sv, game ? QG_SCALARS : MJ_SCALARS, "scalars") < 0) {
        PyBuffer_Release(&pv);
        return NULL;
    }
    int seen[QG_KINDS];
    int *want_seen = seen_obj == Py_None ? NULL : seen;
    int rc = game ? qinger_fill(hand, seat, (float *)pv.buf, (float *)sv.buf, want_seen)
                  : mahjong_fill(hand, seat, (float *)pv.buf, (float *)sv.buf, round_wind,
                                 want_seen);
    PyBuffer_Release(&pv);
    PyBuffer_Release(&sv);
    if (rc < 0 || write_seen(seen_obj, kinds, seen) < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* mask(out, legal): out[a] = 1 for every code a in the list legal (out: zeroed int8) */
static PyObject *
mask(PyObject *self, PyObject *args)
{
    PyObject *out, *legal;
    if (!PyArg_ParseTuple(args, "OO!", &out, &PyList_Type, &legal))
        return NULL;
    Py_buffer v;
    if (PyObject_GetBuffer(out, &v, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    char *cells = (char *)v.buf;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(legal); i++) {
        long a;
        if (as_long(PyList_GET_ITEM(legal, i), &a) < 0) {
            PyBuffer_Release(&v);
            return NULL;
        }
        if (a < 0 || a >= v.len) {
            PyBuffer_Release(&v);
            PyErr_Format(PyExc_ValueError, "action mask: no action code %ld", a);
            return NULL;
        }
        cells[a] = 1;
    }
    PyBuffer_Release(&v);
    Py_RETURN_NONE;
}

static PyObject *
mahjong(PyObject *self, PyObject *args)
{
    return encode(args, 0);
}

static PyObject *
qinger(PyObject *self, PyObject *args)
{
    return encode(args, 1);
}

static PyObject *
configure(PyObject *self, PyObject *args)
{
    PyObject *types, *mjp, *qgp, *jp;
    if (!PyArg_ParseTuple(args, "O!O!O!O", &PyTuple_Type, &types, &PyTuple_Type, &mjp,
                          &PyTuple_Type, &qgp, &jp))
        return NULL;
    if (PyTuple_GET_SIZE(types) != 5 || PyTuple_GET_SIZE(mjp) != 5 ||
        PyTuple_GET_SIZE(qgp) != 5) {
        PyErr_SetString(PyExc_ValueError, "configure: five meld types and five phases a game");
        return NULL;
    }
    Py_buffer v;
    if (PyObject_GetBuffer(jp, &v, PyBUF_SIMPLE) < 0)
        return NULL;
    if (v.len != (Py_ssize_t)sizeof jian_pai) {
        PyBuffer_Release(&v);
        PyErr_SetString(PyExc_ValueError, "configure: the 见牌 table is 36 x 36 float32");
        return NULL;
    }
    memcpy(jian_pai, v.buf, sizeof jian_pai);
    PyBuffer_Release(&v);
    for (int i = 0; i < 5; i++) {
        Py_XSETREF(meld_types[i], Py_NewRef(PyTuple_GET_ITEM(types, i)));
    }
    Py_XSETREF(mj_phases, Py_NewRef(mjp));
    Py_XSETREF(qg_phases, Py_NewRef(qgp));
    configured = 1;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_VARARGS,
     "configure(meld_types, mahjong_phases, qinger_phases, jian_pai): the Python objects "
     "the encoders compare against (MeldType pong, kong, added_kong, concealed_kong, chi)"},
    {"mask", mask, METH_VARARGS,
     "mask(out, legal): 1 in the zeroed int8 buffer out at every action code of the list "
     "legal"},
    {"mahjong", mahjong, METH_VARARGS,
     "mahjong(hand, seat, planes, scalars, round_wind, seen): the mahjong encoding's first "
     "62 planes and its scalars but the shanten one, into zeroed float32 buffers; seen "
     "(int16 per kind, or None) gets the counts the seat has seen"},
    {"qinger", qinger, METH_VARARGS,
     "qinger(hand, seat, planes, scalars, round_wind, seen): the Qing'er encoding's first "
     "51 planes and its scalars but the shanten one (round_wind is not read)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_cencode",
    "The observation encoders' planes and scalars in C (see paiju.rl.encode).", -1, methods,
    NULL, NULL, NULL, NULL,
};

#define INTERN(var, text)                                                                    \
    do {                                                                                     \
        var = PyUnicode_InternFromString(text);                                              \
        if (var == NULL)                                                                     \
            return NULL;                                                                     \
    } while (0)

PyMODINIT_FUNC
PyInit__cencode(void)
{
    INTERN(s_counts, "counts");
    INTERN(s_discards, "discards");
    INTERN(s_melds, "melds");
    INTERN(s_flowers, "flowers");
    INTERN(s_fed, "fed");
    INTERN(s_ready, "ready");
    INTERN(s_ledger, "ledger");
    INTERN(s_phase, "phase");
    INTERN(s_current, "current");
    INTERN(s_drawn, "drawn");
    INTERN(s_claim_tile, "claim_tile");
    INTERN(s_claim_from, "claim_from");
    INTERN(s_rob_seat, "rob_seat");
    INTERN(s_head, "head");
    INTERN(s_tail, "tail");
    INTERN(s_leopard, "leopard");
    INTERN(s_after_kong, "after_kong");
    INTERN(s_kong_chain, "kong_chain");
    INTERN(s_dealer, "dealer");
    INTERN(s_rules, "rules");
    INTERN(s_draw_streak, "draw_streak");
    INTERN(s_net, "net");
    INTERN(s_tile, "tile");
    INTERN(s_type, "type");
    INTERN(s_source, "source");
    INTERN(s_cards, "cards");
    INTERN(s_takeoffs, "takeoffs");
    INTERN(s_players, "players");
    INTERN(s_next_seat, "next_seat");
    INTERN(s_knocked, "knocked");
    INTERN(s_declared, "declared");
    INTERN(s_revealed, "revealed");
    INTERN(s_indicator, "indicator");
    INTERN(s_claim_card, "claim_card");
    INTERN(s_after_pong, "after_pong");
    INTERN(s_stock, "stock");
    return PyModule_Create(&module);
}
