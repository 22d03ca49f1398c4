"""The Karakorum lesson: a whole game dealt from seed 55, the learner first.

Every rule comes up at one of the steps: revealing, taking (several of one
peak, or one from another player's round), placing in non-decreasing order
within the expedition limits, removing short expeditions, scoring by axes
and with a goal card, the final cancelling and the champions.  The moves
below are the whole game, Greedy against Greedy (``python bench/lessons.py
emit karakorum 55``); the steps pick the learner's decisions to make by hand.
"""

from __future__ import annotations

from karavan_core.engine import Action
from karavan_core.games.karakorum.components import GoalKind, Peak
from karavan_core.games.karakorum.state import (
    Card,
    Done,
    Pass,
    Place,
    Remove,
    Reveal,
    Score,
    StopRevealing,
    StopTaking,
    Take,
)
from karavan_core.lessons import Lesson, Step

MOVES: tuple[Action, ...] = (
    Reveal(),  # 0
    Reveal(),  # 1
    Take(Card(Peak.YELLOW, 1, 3)),  # 2
    Pass(),  # 3
    Place(Card(Peak.YELLOW, 1, 3), None),  # 4
    Reveal(),  # 5
    Reveal(),  # 6
    Take(Card(Peak.YELLOW, 7, 1)),  # 7
    Pass(),  # 8
    Place(Card(Peak.YELLOW, 7, 1), None),  # 9
    Reveal(),  # 10
    Reveal(),  # 11
    Take(Card(Peak.RED, 4, 0)),  # 12
    Take(Card(Peak.RED, 5, 1)),  # 13
    Pass(),  # 14
    Place(Card(Peak.RED, 4, 0), None),  # 15
    Place(Card(Peak.RED, 5, 1), 1),  # 16
    Done(),  # 17
    StopRevealing(),  # 18
    Take(Card(Peak.YELLOW, 3, 1)),  # 19
    Remove(0),  # 20
    Place(Card(Peak.YELLOW, 3, 1), None),  # 21
    StopRevealing(),  # 22
    Take(Card(Peak.YELLOW, 1, 0)),  # 23
    Remove(1),  # 24
    Place(Card(Peak.YELLOW, 1, 0), 0),  # 25
    Reveal(),  # 26
    StopRevealing(),  # 27
    Take(Card(Peak.GREEN, 5, 1)),  # 28
    Take(Card(Peak.YELLOW, 7, 1)),  # 29
    Remove(0),  # 30
    Place(Card(Peak.GREEN, 5, 1), None),  # 31
    Place(Card(Peak.YELLOW, 7, 1), 0),  # 32
    Score(0, None),  # 33
    Reveal(),  # 34
    StopRevealing(),  # 35
    Take(Card(Peak.YELLOW, 7, 2)),  # 36
    Pass(),  # 37
    Place(Card(Peak.YELLOW, 7, 2), None),  # 38
    StopRevealing(),  # 39
    Take(Card(Peak.RED, 5, 3)),  # 40
    Remove(0),  # 41
    Place(Card(Peak.RED, 5, 3), None),  # 42
    Reveal(),  # 43
    Reveal(),  # 44
    Take(Card(Peak.YELLOW, 6, 3)),  # 45
    Pass(),  # 46
    Place(Card(Peak.YELLOW, 6, 3), None),  # 47
    Done(),  # 48
    StopRevealing(),  # 49
    Take(Card(Peak.GREEN, 3, 3)),  # 50
    Place(Card(Peak.GREEN, 3, 3), None),  # 51
    Done(),  # 52
    StopRevealing(),  # 53
    Take(Card(Peak.GREEN, 4, 2)),  # 54
    Place(Card(Peak.GREEN, 4, 2), None),  # 55
    Done(),  # 56
    StopRevealing(),  # 57
    Take(Card(Peak.YELLOW, 8, 1)),  # 58
    Place(Card(Peak.YELLOW, 8, 1), None),  # 59
    Done(),  # 60
    Reveal(),  # 61
    Reveal(),  # 62
    Take(Card(Peak.RED, 2, 1)),  # 63
    Pass(),  # 64
    Place(Card(Peak.RED, 2, 1), None),  # 65
    Remove(2),  # 66
    Done(),  # 67
    StopRevealing(),  # 68
    Take(Card(Peak.RED, 2, 3)),  # 69
    Remove(2),  # 70
    Place(Card(Peak.RED, 2, 3), None),  # 71
    Done(),  # 72
    StopRevealing(),  # 73
    Take(Card(Peak.YELLOW, 6, 0)),  # 74
    Remove(2),  # 75
    Place(Card(Peak.YELLOW, 6, 0), 1),  # 76
    Done(),  # 77
    StopRevealing(),  # 78
    Take(Card(Peak.GREEN, 8, 3)),  # 79
    Place(Card(Peak.GREEN, 8, 3), 1),  # 80
    Done(),  # 81
    StopRevealing(),  # 82
    Take(Card(Peak.RED, 1, 1)),  # 83
    Place(Card(Peak.RED, 1, 1), None),  # 84
    Done(),  # 85
    Reveal(),  # 86
    Reveal(),  # 87
    Take(Card(Peak.GREEN, 8, 1)),  # 88
    Take(Card(Peak.GREEN, 7, 0)),  # 89
    Take(Card(Peak.RED, 5, 1)),  # 90
    Remove(0),  # 91
    Place(Card(Peak.GREEN, 7, 0), None),  # 92
    Place(Card(Peak.GREEN, 8, 1), 0),  # 93
    Done(),  # 94
    Place(Card(Peak.RED, 5, 1), 2),  # 95
    Done(),  # 96
    Reveal(),  # 97
    StopRevealing(),  # 98
    Take(Card(Peak.RED, 4, 1)),  # 99
    Take(Card(Peak.YELLOW, 2, 1)),  # 100
    Remove(2),  # 101
    Place(Card(Peak.RED, 4, 1), None),  # 102
    Done(),  # 103
    Place(Card(Peak.YELLOW, 2, 1), None),  # 104
    Remove(2),  # 105
    Done(),  # 106
    Reveal(),  # 107
    StopRevealing(),  # 108
    Take(Card(Peak.GREEN, 3, 0)),  # 109
    Take(Card(Peak.YELLOW, 5, 3)),  # 110
    Place(Card(Peak.GREEN, 3, 0), None),  # 111
    Remove(2),  # 112
    Done(),  # 113
    Remove(2),  # 114
    Remove(0),  # 115
    Place(Card(Peak.YELLOW, 5, 3), None),  # 116
    Done(),  # 117
    StopRevealing(),  # 118
    Take(Card(Peak.YELLOW, 5, 0)),  # 119
    Place(Card(Peak.YELLOW, 5, 0), 1),  # 120
    Done(),  # 121
    StopRevealing(),  # 122
    Take(Card(Peak.RED, 7, 3)),  # 123
    Remove(2),  # 124
    Place(Card(Peak.RED, 7, 3), 1),  # 125
    StopRevealing(),  # 126
    Take(Card(Peak.GREEN, 1, 2)),  # 127
    Place(Card(Peak.GREEN, 1, 2), None),  # 128
    Done(),  # 129
    Reveal(),  # 130
    Reveal(),  # 131
    Take(Card(Peak.GREEN, 4, 0)),  # 132
    Take(Card(Peak.YELLOW, 7, 0)),  # 133
    Place(Card(Peak.GREEN, 4, 0), None),  # 134
    Done(),  # 135
    Place(Card(Peak.YELLOW, 7, 0), 0),  # 136
    Done(),  # 137
    StopRevealing(),  # 138
    Take(Card(Peak.RED, 3, 3)),  # 139
    Place(Card(Peak.RED, 3, 3), None),  # 140
    Remove(2),  # 141
    Done(),  # 142
    Reveal(),  # 143
    Reveal(),  # 144
    Take(Card(Peak.YELLOW, 2, 3)),  # 145
    Pass(),  # 146
    Remove(2),  # 147
    Place(Card(Peak.YELLOW, 2, 3), None),  # 148
    Done(),  # 149
    Reveal(),  # 150
    Reveal(),  # 151
    Take(Card(Peak.GREEN, 5, 1)),  # 152
    Take(Card(Peak.YELLOW, 3, 0)),  # 153
    Place(Card(Peak.GREEN, 5, 1), None),  # 154
    Done(),  # 155
    Place(Card(Peak.YELLOW, 3, 0), 2),  # 156
    Done(),  # 157
    StopRevealing(),  # 158
    Take(Card(Peak.GREEN, 7, 2)),  # 159
    Remove(2),  # 160
    Place(Card(Peak.GREEN, 7, 2), None),  # 161
    Done(),  # 162
    StopRevealing(),  # 163
    Take(Card(Peak.RED, 7, 1)),  # 164
    Place(Card(Peak.RED, 7, 1), 2),  # 165
    Remove(3),  # 166
    Done(),  # 167
    StopRevealing(),  # 168
    Take(Card(Peak.GREEN, 7, 3)),  # 169
    Place(Card(Peak.GREEN, 7, 3), 2),  # 170
    Done(),  # 171
    StopRevealing(),  # 172
    Take(Card(Peak.YELLOW, 6, 2)),  # 173
    Place(Card(Peak.YELLOW, 6, 2), 1),  # 174
    Score(1, GoalKind.DOUBLE),  # 175
    Done(),  # 176
    Reveal(),  # 177
    StopRevealing(),  # 178
    Take(Card(Peak.GREEN, 3, 1)),  # 179
    Take(Card(Peak.YELLOW, 2, 1)),  # 180
    Remove(2),  # 181
    Place(Card(Peak.GREEN, 3, 1), None),  # 182
    Done(),  # 183
    Place(Card(Peak.YELLOW, 2, 1), None),  # 184
    Done(),  # 185
    Reveal(),  # 186
    StopRevealing(),  # 187
    Take(Card(Peak.YELLOW, 7, 3)),  # 188
    Take(Card(Peak.RED, 1, 0)),  # 189
    Place(Card(Peak.YELLOW, 7, 3), 1),  # 190
    Done(),  # 191
    Remove(2),  # 192
    Place(Card(Peak.RED, 1, 0), None),  # 193
    Done(),  # 194
    StopRevealing(),  # 195
    Take(Card(Peak.YELLOW, 6, 1)),  # 196
    Place(Card(Peak.YELLOW, 6, 1), None),  # 197
    Remove(2),  # 198
    Done(),  # 199
    Reveal(),  # 200
    Reveal(),  # 201
    Take(Card(Peak.RED, 1, 3)),  # 202
    Pass(),  # 203
    Place(Card(Peak.RED, 1, 3), None),  # 204
    Done(),  # 205
    StopRevealing(),  # 206
    Take(Card(Peak.YELLOW, 6, 1)),  # 207
    Remove(2),  # 208
    Place(Card(Peak.YELLOW, 6, 1), None),  # 209
    Done(),  # 210
    StopRevealing(),  # 211
    Take(Card(Peak.GREEN, 1, 3)),  # 212
    Place(Card(Peak.GREEN, 1, 3), None),  # 213
    Done(),  # 214
    StopRevealing(),  # 215
    Take(Card(Peak.RED, 8, 1)),  # 216
    Remove(2),  # 217
    Place(Card(Peak.RED, 8, 1), 1),  # 218
    Score(1, None),  # 219
    StopRevealing(),  # 220
    Take(Card(Peak.RED, 6, 1)),  # 221
    Place(Card(Peak.RED, 6, 1), 2),  # 222
    Done(),  # 223
    Reveal(),  # 224
    StopRevealing(),  # 225
    Take(Card(Peak.GREEN, 4, 1)),  # 226
    Take(Card(Peak.GREEN, 2, 1)),  # 227
    Place(Card(Peak.GREEN, 2, 1), None),  # 228
    Place(Card(Peak.GREEN, 4, 1), 1),  # 229
    StopRevealing(),  # 230
    Take(Card(Peak.YELLOW, 8, 0)),  # 231
    Remove(3),  # 232
    Place(Card(Peak.YELLOW, 8, 0), 1),  # 233
    Done(),  # 234
    Reveal(),  # 235
    StopRevealing(),  # 236
    Take(Card(Peak.GREEN, 5, 2)),  # 237
    Take(Card(Peak.GREEN, 2, 3)),  # 238
    Place(Card(Peak.GREEN, 5, 2), 1),  # 239
    Score(1, None),  # 240
    Place(Card(Peak.GREEN, 2, 3), None),  # 241
    Reveal(),  # 242
    Reveal(),  # 243
    Take(Card(Peak.GREEN, 6, 1)),  # 244
    Take(Card(Peak.YELLOW, 5, 2)),  # 245
    Place(Card(Peak.GREEN, 6, 1), None),  # 246
    Done(),  # 247
    Place(Card(Peak.YELLOW, 5, 2), None),  # 248
    Done(),  # 249
    Reveal(),  # 250
    Reveal(),  # 251
    Take(Card(Peak.YELLOW, 1, 1)),  # 252
    Take(Card(Peak.YELLOW, 1, 1)),  # 253
    Pass(),  # 254
    Remove(2),  # 255
    Place(Card(Peak.YELLOW, 1, 1), None),  # 256
    Place(Card(Peak.YELLOW, 1, 1), 2),  # 257
    Done(),  # 258
    Reveal(),  # 259
    StopRevealing(),  # 260
    Take(Card(Peak.RED, 1, 2)),  # 261
    Pass(),  # 262
    Remove(2),  # 263
    Place(Card(Peak.RED, 1, 2), None),  # 264
    Done(),  # 265
    StopRevealing(),  # 266
    Take(Card(Peak.GREEN, 8, 2)),  # 267
    Remove(2),  # 268
    Place(Card(Peak.GREEN, 8, 2), 0),  # 269
    Done(),  # 270
    StopRevealing(),  # 271
    Take(Card(Peak.GREEN, 8, 1)),  # 272
    Remove(3),  # 273
    Place(Card(Peak.GREEN, 8, 1), 2),  # 274
    Done(),  # 275
    Reveal(),  # 276
    StopRevealing(),  # 277
    Take(Card(Peak.RED, 8, 1)),  # 278
    Take(Card(Peak.GREEN, 6, 2)),  # 279
    Place(Card(Peak.RED, 8, 1), None),  # 280
    Done(),  # 281
    Place(Card(Peak.GREEN, 6, 2), None),  # 282
    Remove(2),  # 283
    Done(),  # 284
    StopRevealing(),  # 285
    Take(Card(Peak.GREEN, 1, 1)),  # 286
    Place(Card(Peak.GREEN, 1, 1), None),  # 287
    Done(),  # 288
    Reveal(),  # 289
    Reveal(),  # 290
    Take(Card(Peak.YELLOW, 4, 1)),  # 291
    Take(Card(Peak.YELLOW, 4, 3)),  # 292
    Take(Card(Peak.YELLOW, 8, 1)),  # 293
    Place(Card(Peak.YELLOW, 4, 1), None),  # 294
    Place(Card(Peak.YELLOW, 4, 3), 3),  # 295
    Place(Card(Peak.YELLOW, 8, 1), 3),  # 296
    Score(3, None),  # 297
    Done(),  # 298
    Reveal(),  # 299
    StopRevealing(),  # 300
    Take(Card(Peak.RED, 8, 3)),  # 301
    Take(Card(Peak.RED, 6, 0)),  # 302
    Remove(2),  # 303
    Place(Card(Peak.RED, 8, 3), 0),  # 304
    Remove(2),  # 305
    Place(Card(Peak.RED, 6, 0), None),  # 306
    Done(),  # 307
    Reveal(),  # 308
    Reveal(),  # 309
    Take(Card(Peak.RED, 3, 1)),  # 310
    StopTaking(),  # 311
    Take(Card(Peak.RED, 7, 0)),  # 312
    Remove(2),  # 313
    Place(Card(Peak.RED, 3, 1), None),  # 314
    Done(),  # 315
    Place(Card(Peak.RED, 7, 0), 2),  # 316
    Reveal(),  # 317
    StopRevealing(),  # 318
    Take(Card(Peak.RED, 2, 0)),  # 319
    Take(Card(Peak.RED, 2, 2)),  # 320
    Remove(2),  # 321
    Place(Card(Peak.RED, 2, 0), None),  # 322
    Place(Card(Peak.RED, 2, 2), 2),  # 323
    Reveal(),  # 324
    Reveal(),  # 325
    Take(Card(Peak.YELLOW, 3, 2)),  # 326
    Take(Card(Peak.RED, 7, 2)),  # 327
    Place(Card(Peak.YELLOW, 3, 2), None),  # 328
    Remove(2),  # 329
    Done(),  # 330
    Place(Card(Peak.RED, 7, 2), 2),  # 331
    Score(2, None),  # 332
    StopRevealing(),  # 333
    Take(Card(Peak.YELLOW, 2, 2)),  # 334
    Place(Card(Peak.YELLOW, 2, 2), None),  # 335
    StopRevealing(),  # 336
    Take(Card(Peak.GREEN, 2, 2)),  # 337
    Place(Card(Peak.GREEN, 2, 2), 1),  # 338
    Done(),  # 339
    Reveal(),  # 340
    Reveal(),  # 341
    Take(Card(Peak.GREEN, 2, 1)),  # 342
    Take(Card(Peak.RED, 4, 1)),  # 343
    Place(Card(Peak.GREEN, 2, 1), None),  # 344
    Done(),  # 345
    Place(Card(Peak.RED, 4, 1), None),  # 346
    Done(),  # 347
    Reveal(),  # 348
    Reveal(),  # 349
    Take(Card(Peak.GREEN, 3, 2)),  # 350
    Take(Card(Peak.RED, 3, 0)),  # 351
    Place(Card(Peak.GREEN, 3, 2), 1),  # 352
    Done(),  # 353
    Remove(3),  # 354
    Remove(2),  # 355
    Place(Card(Peak.RED, 3, 0), None),  # 356
    Reveal(),  # 357
    Reveal(),  # 358
    Take(Card(Peak.YELLOW, 4, 1)),  # 359
    Take(Card(Peak.YELLOW, 4, 0)),  # 360
    Take(Card(Peak.RED, 4, 3)),  # 361
    Remove(2),  # 362
    Place(Card(Peak.YELLOW, 4, 0), None),  # 363
    Place(Card(Peak.YELLOW, 4, 1), 2),  # 364
    Place(Card(Peak.RED, 4, 3), 3),  # 365
    Done(),  # 366
    StopRevealing(),  # 367
    Take(Card(Peak.RED, 8, 2)),  # 368
    Remove(2),  # 369
    Place(Card(Peak.RED, 8, 2), 2),  # 370
    Done(),  # 371
    StopRevealing(),  # 372
    Take(Card(Peak.YELLOW, 8, 2)),  # 373
    Place(Card(Peak.YELLOW, 8, 2), 2),  # 374
    Done(),  # 375
    StopRevealing(),  # 376
    Take(Card(Peak.GREEN, 5, 3)),  # 377
    Place(Card(Peak.GREEN, 5, 3), 1),  # 378
    Score(1, GoalKind.AXES),  # 379
    Reveal(),  # 380
    Take(Card(Peak.GREEN, 6, 1)),  # 381
    StopTaking(),  # 382
    Pass(),  # 383
    Place(Card(Peak.GREEN, 6, 1), None),  # 384
    Reveal(),  # 385
    StopRevealing(),  # 386
    Take(Card(Peak.GREEN, 1, 1)),  # 387
    StopTaking(),  # 388
    Take(Card(Peak.GREEN, 2, 0)),  # 389
    Place(Card(Peak.GREEN, 1, 1), None),  # 390
    Remove(3),  # 391
    Place(Card(Peak.GREEN, 2, 0), None),  # 392
    Reveal(),  # 393
    Take(Card(Peak.GREEN, 6, 3)),  # 394
    Take(Card(Peak.YELLOW, 5, 1)),  # 395
    Remove(3),  # 396
    Place(Card(Peak.GREEN, 6, 3), None),  # 397
    Place(Card(Peak.YELLOW, 5, 1), None),  # 398
    Done(),  # 399
    Take(Card(Peak.RED, 2, 1)),  # 400
    Remove(2),  # 401
    Place(Card(Peak.RED, 2, 1), None),  # 402
    Done(),  # 403
)

STEPS = (
    Step(
        0,
        "Welcome to Karakorum! Climb three peaks, red, green and yellow, each with a track "
        "from 0 to 30. Each round the holder of the first-player marker (you, now) reveals "
        "summit cards one at a time, one to three of them, takes some, and the others may "
        "take from what is left; then everyone places the cards taken.",
        "Look at the table: the red 1 is revealed",
        teaches=("round",),
    ),
    Step(
        0,
        "Reveal more: after each card you choose whether to go on. Three is the most in a "
        "game of two. Reveal two more cards.",
        "Reveal two more cards from the deck",
        decisions=2,
        why="more cards on the table give you more to choose from.",
        teaches=("reveal",),
    ),
    Step(
        2,
        "Now take at least one card; you may take several only if they are all of one "
        "peak. Take the yellow 1: it has three ice axes, and axes are what an expedition "
        "scores. The other player then takes one of the rest, or passes.",
        "Take the yellow 1",
        decisions=1,
        why="three axes on one card is a fine start.",
        teaches=("take", "pass"),
    ),
    Step(
        4,
        "Place what you took: on an expedition of its peak, or to start a new one. You may "
        "have four expeditions at most: one per peak, and one more of any peak. Start a "
        "yellow expedition.",
        "Start a new yellow expedition with the yellow 1",
        decisions=1,
        why="every card you take must find a place.",
        teaches=("new-expedition", "limits"),
    ),
    Step(
        12,
        "Greedy's round went by (you passed). Your round again: the red 4, green 7 and red 5 "
        "are out. Take both reds: several cards are allowed when they are all of one peak.",
        "Take the red 4, then the red 5",
        decisions=2,
        why="two cards of one peak at once grow an expedition fast.",
        teaches=("take-more",),
    ),
    Step(
        15,
        "In an expedition the values never go down. Start a red expedition with the red 4, "
        "put the red 5 on it, then end your placing turn.",
        "Place the red 4, then the red 5 on it, then end the turn",
        decisions=3,
        why="the 4 must come first: an expedition climbs, it never goes down.",
        teaches=("order",),
    ),
    Step(
        22,
        "You may also stop revealing early: one card can be enough. Stop, then take the "
        "yellow 1 you revealed.",
        "Stop revealing, then take the yellow 1",
        decisions=2,
        why="the yellow 1 fits your yellow expedition.",
        teaches=("stop",),
    ),
    Step(
        24,
        "Whenever you take a card you may remove an expedition of one or two cards: it costs "
        "3 steps on its peak's track, never below 0. Remove the red one (your red marker is "
        "at 0: it costs nothing), then put the yellow 1 on your yellow expedition.",
        "Remove the red expedition, then place the yellow 1",
        decisions=2,
        why="a short expedition in the way is cheap to remove while its track is at 0.",
        teaches=("remove",),
    ),
    Step(
        29,
        "In Greedy's round you may take one card of those left, but only one you can place. "
        "Take the yellow 7.",
        "Take the yellow 7 from Greedy's round",
        decisions=1,
        why="it makes your yellow expedition three cards long.",
        teaches=("take-others", "take-placeable"),
    ),
    Step(
        32,
        "Place the yellow 7, then score the expedition: with three cards or more, the one "
        "you just added to may be scored by its ice axes, and your marker climbs that many "
        "steps. The scored cards are discarded.",
        "Place the yellow 7, then score the yellow expedition",
        decisions=2,
        why="its four axes move your yellow marker up to 4.",
        teaches=("score",),
    ),
    Step(
        174,
        "The game went on for you. A goal card scores instead of the axes: 4 or 6 cards, "
        "two expeditions of 3 of one peak, or 10 axes. Each goal is used once by anyone, "
        "then gone. Place the yellow 6 and score with the yellow double 3-card goal (+10), "
        "then end the turn.",
        "Place the yellow 6, score the double 3-card goal, end the turn",
        decisions=3,
        why="both yellow expeditions have three cards: the goal is worth 10.",
        teaches=("goal",),
    ),
    Step(
        404,
        "The deck ran out: that was the last round. Every expedition was cancelled: three "
        "cards or more score their axes, shorter ones cost 3 (a track stops at 30). Then the "
        "champions: who leads a peak drops that marker (leading several, the lowest) and "
        "adds the other two. You lead red and yellow and drop red: 0 + 15 = 15. Greedy leads "
        "green and drops its 25: 4 + 0 = 4. You win! (All three markers on 30 win at once.)",
        "You win the game",
        teaches=("final", "champions", "instant-win"),
    ),
)

LESSON = Lesson("karakorum", 55, 0, MOVES, STEPS)
