package dev.kensho.core.result;

import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

/**
 * A timeline column as read back from trials.jsonl: the values in a double[], boxed only when read. A study-sized
 * sweep keeps 200 host columns of 300 seconds per trial; as a list of Doubles they took 20 bytes a value, and a
 * 216-trial run did not fit a 512 MB heap.
 */
final class DoubleColumn extends AbstractList<Double> implements RandomAccess {
    private final double[] values;

    private DoubleColumn(double[] values) {
        this.values = values;
    }

    /** The list as a column, where every element is a Double; otherwise the list as it is. */
    static List<?> of(List<?> list) {
        double[] v = new double[list.size()];
        for (int i = 0; i < v.length; i++) {
            if (!(list.get(i) instanceof Double d)) return list;
            v[i] = d;
        }
        return new DoubleColumn(v);
    }

    @Override
    public Double get(int i) {
        return values[i];
    }

    @Override
    public int size() {
        return values.length;
    }
}
