package dev.kensho.ssb.gen;

import java.util.List;
import java.util.Map;

/**
 * Digests of ssb-dbgen (eyalroz/ssb-dbgen @ ae1e254, {@code TZ=UTC dbgen -s N}, all tables in one process), copied
 * from ../shared/ssb-reference/tables-sf01.txt and tables-sf1.txt so that the tests do not depend on that directory.
 */
final class Reference {
    record Table(long rows, long bytes, String md5, List<String> firstLines, String lastLine) {
    }

    private Reference() {
    }

    static final Map<SsbTable, Table> SF01 = Map.of(
        SsbTable.PART, new Table(20000, 1693377, "61fcafdc115d9d9732474cb8c6c42cdd", List.of(
            "1|lace spring|MFGR#1|MFGR#11|MFGR#1121|goldenrod|PROMO BURNISHED COPPER|7|JUMBO PKG|",
            "2|rosy metallic|MFGR#1|MFGR#12|MFGR#1218|blush|LARGE BRUSHED BRASS|1|LG CASE|",
            "3|green antique|MFGR#4|MFGR#41|MFGR#4110|dark|STANDARD POLISHED BRASS|21|WRAP CASE|"),
            "20000|salmon ivory|MFGR#2|MFGR#25|MFGR#2538|royal|STANDARD BURNISHED NICKEL|48|SM JAR|"),
        SsbTable.SUPPLIER, new Table(200, 16360, "faf888f9ea5b353fcd0e749d522b3bf0", List.of(
            "1|Supplier#000000001|sdrGnXCDRcfriBvY0KL,i|PERU     9|PERU|AMERICA|27-989-741-2988|",
            "2|Supplier#000000002|TRMhVHz3XiFu|ETHIOPIA 2|ETHIOPIA|AFRICA|15-768-687-3665|",
            "3|Supplier#000000003|BZ0kXcHUcHjx62L7CjZS|ARGENTINA5|ARGENTINA|AMERICA|11-719-748-3364|"),
            "200|Supplier#000000200|fdAQLE5VY6hwvxG|IRAQ     8|IRAQ|MIDDLE EAST|21-472-302-4189|"),
        SsbTable.CUSTOMER, new Table(3000, 280520, "a350472fc3e368f0be8ad524d61932a9", List.of(
            "1|Customer#000000001|j5JsirBM9P|MOROCCO  2|MOROCCO|AFRICA|25-759-183-9859|BUILDING|",
            "2|Customer#000000002|487LW1dovn6Q4dMVym|JORDAN   8|JORDAN|MIDDLE EAST|23-905-805-4635|AUTOMOBILE|",
            "3|Customer#000000003|fkRGN8n|ARGENTINA1|ARGENTINA|AMERICA|11-886-563-6149|AUTOMOBILE|"),
            "3000|Customer#000003000|,5Yw1O|EGYPT    5|EGYPT|MIDDLE EAST|14-631-820-9758|FURNITURE|"),
        SsbTable.DATE, new Table(255, 22325, "40c20a029babac251a8e1accf7200a7a", List.of(
            "19920101|January 1, 1992|Thursday|January|1992|199201|Jan1992|5|1|1|1|1|Winter|0|0|1|1|",
            "19920102|January 2, 1992|Friday|January|1992|199201|Jan1992|6|2|2|1|1|Winter|0|0|0|1|",
            "19920103|January 3, 1992|Saturday|January|1992|199201|Jan1992|7|3|3|1|1|Winter|1|0|0|0|"),
            "19920911|September 11, 1992|Saturday|September|1992|199209|Sep1992|7|11|255|9|37|Fall|1|0|0|0|"),
        SsbTable.LINEORDER, new Table(600597, 57481882, "506c4017655f94e9a93c112f285844de", List.of(
            "1|1|70|15519|83|19971223|5-LOW|0|17|2438667|14954219|4|2341120|86070|2|19980202|TRUCK|",
            "1|2|70|6731|17|19971223|5-LOW|0|36|5895828|14954219|9|5365203|98263|6|19980218|MAIL|",
            "1|3|70|6370|8|19971223|5-LOW|0|8|1021096|14954219|10|918986|76582|2|19980224|REG AIR|"),
            "600000|7|1807|6420|3|19941119|4-NOT SPECIFIED|0|28|3713976|21623402|10|3342578|79585|5|19950123|RAIL|"));

    static final Map<SsbTable, Table> SF1 = Map.of(
        SsbTable.PART, new Table(200000, 17139259, "165f23e401293d995c7b57ef12bfb4e6", List.of(
            "1|lace spring|MFGR#1|MFGR#11|MFGR#1121|goldenrod|PROMO BURNISHED COPPER|7|JUMBO PKG|",
            "2|rosy metallic|MFGR#1|MFGR#12|MFGR#1218|blush|LARGE BRUSHED BRASS|1|LG CASE|",
            "3|green antique|MFGR#4|MFGR#41|MFGR#4110|dark|STANDARD POLISHED BRASS|21|WRAP CASE|"),
            "200000|light midnight|MFGR#5|MFGR#55|MFGR#5523|firebrick|MEDIUM ANODIZED TIN|22|LG CAN|"),
        SsbTable.SUPPLIER, new Table(2000, 166676, "acb3f531fe0264a598a7b2410fe7f5cf", List.of(
            "1|Supplier#000000001|sdrGnXCDRcfriBvY0KL,i|PERU     9|PERU|AMERICA|27-989-741-2988|",
            "2|Supplier#000000002|TRMhVHz3XiFu|ETHIOPIA 2|ETHIOPIA|AFRICA|15-768-687-3665|",
            "3|Supplier#000000003|BZ0kXcHUcHjx62L7CjZS|ARGENTINA5|ARGENTINA|AMERICA|11-719-748-3364|"),
            "2000|Supplier#000002000|QZ0f4,oOa3UeBY9bK|IRAQ     8|IRAQ|MIDDLE EAST|21-122-829-3487|"),
        SsbTable.CUSTOMER, new Table(30000, 2837046, "f7fb08c2aa4059d328e98d4020fb80d1", List.of(
            "1|Customer#000000001|j5JsirBM9P|MOROCCO  6|MOROCCO|AFRICA|25-214-662-5265|BUILDING|",
            "2|Customer#000000002|487LW1dovn6Q4dMVym|JORDAN   0|JORDAN|MIDDLE EAST|23-159-880-1131|AUTOMOBILE|",
            "3|Customer#000000003|fkRGN8n|ARGENTINA4|ARGENTINA|AMERICA|11-913-966-3595|AUTOMOBILE|"),
            "30000|Customer#000030000| 3I5hj95W|RUSSIA   5|RUSSIA|EUROPE|32-988-774-5166|BUILDING|"),
        SsbTable.DATE, new Table(2557, 229628, "9fa606e030772339be7845a93e30922c", List.of(
            "19920101|January 1, 1992|Thursday|January|1992|199201|Jan1992|5|1|1|1|1|Winter|0|0|1|1|",
            "19920102|January 2, 1992|Friday|January|1992|199201|Jan1992|6|2|2|1|1|Winter|0|0|0|1|",
            "19920103|January 3, 1992|Saturday|January|1992|199201|Jan1992|7|3|3|1|1|Winter|1|0|0|0|"),
            "19981231|December 31, 1998|Friday|December|1998|199812|Dec1998|6|31|365|12|53|Christmas|0|1|0|1|"),
        SsbTable.LINEORDER, new Table(6001173, 599096188, "c059a2399a7cdc5423cec73e334acec8", List.of(
            "1|1|18238|155190|828|19960130|2-HIGH|0|17|2116823|10523209|4|2032150|74711|2|19960311|TRUCK|",
            "1|2|18238|67310|163|19960130|2-HIGH|0|36|4598316|10523209|9|4184467|76638|6|19960327|MAIL|",
            "1|3|18238|63700|71|19960130|2-HIGH|0|8|1330960|10523209|10|1197864|99822|2|19960402|REG AIR|"),
            "6000000|5|15773|36993|290|19970819|1-URGENT|0|10|1929990|12519323|8|1775590|115799|6|19971108|SHIP|"));
}
