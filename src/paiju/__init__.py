"""paiju (牌局): engine, calculator and tools for Jiaxing mahjong, Taixing mahjong and Qing'er."""

__version__ = "0.1.0"
